# gradients of asin/acos/atan2/atanh/sinh/cosh/hypot/logaddexp and printing with inf
import torch

x = torch.tensor([-0.5, 0.0, 0.5], requires_grad=True)
y = torch.tensor([1.0, -2.0, 0.0], requires_grad=True)
fs = [lambda: torch.asin(x), lambda: torch.acos(x), lambda: torch.atanh(x), lambda: torch.sinh(x) * torch.cosh(y), lambda: torch.atan2(x, y), lambda: torch.hypot(x, y), lambda: torch.logaddexp(x, y), lambda: torch.xlogy(x.abs(), y.abs())]
for f in fs:
    x.grad = None
    y.grad = None
    out = f()
    out.sum().backward()
    print(out.detach(), *[None if g is None else g + 0.0 for g in (x.grad, y.grad)])  # (+0.0: zeros of either sign)
