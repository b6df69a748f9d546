# log1p/expm1/xlogy/special functions near 0 and their gradients
import torch

x = torch.tensor([0.0, 1e-10, 0.5, 3.0], requires_grad=True)
for name, f in [("log1p", torch.log1p), ("expm1", torch.expm1), ("xlogy", lambda t: torch.xlogy(t, t)),
                ("erf", torch.erf), ("erfc", torch.erfc), ("lgamma", lambda t: torch.lgamma(t + 1)),
                ("digamma", lambda t: torch.digamma(t + 1)), ("sinc", torch.sinc), ("i0", torch.special.i0),
                ("entr", torch.special.entr), ("logit", lambda t: torch.logit(t, eps=1e-6)),
                ("log_ndtr", torch.special.log_ndtr), ("xlog1py", lambda t: torch.special.xlog1py(t, t))]:
    x.grad = None
    y = f(x)
    y.sum().backward()
    print(name, y.detach(), x.grad)
