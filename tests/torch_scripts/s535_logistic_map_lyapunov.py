import torch

r = torch.tensor([2.8, 3.3, 3.5, 3.9], requires_grad=True)
x = torch.full((4,), 0.3)
for _ in range(200):
    x = r * x * (1 - x)
burn = x.detach()
print(burn.round(decimals=4))
# Lyapunov exponent: mean log|f'(x)| along the orbit, f'(x) = r (1 - 2x)
xs = burn.clone()
acc = torch.zeros(4)
for _ in range(500):
    xi = xs.clone().requires_grad_(True)
    fx = r.detach() * xi * (1 - xi)
    d, = torch.autograd.grad(fx.sum(), xi)
    acc += torch.log(d.abs() + 1e-300)
    xs = fx.detach()
lyap = acc / 500
print(lyap.round(decimals=3), (lyap > 0).tolist())
x.sum().backward()
print(r.grad.abs().max().item() > 1e3)
# derivative of the orbit by forward-mode dual numbers
import torch.autograd.forward_ad as fwAD
with fwAD.dual_level():
    rr = fwAD.make_dual(torch.tensor([2.8]), torch.tensor([1.0]))
    y = torch.tensor([0.3])
    for _ in range(20):
        y = rr * y * (1 - y)
    p, t = fwAD.unpack_dual(y)
print(p.round(decimals=6), t.round(decimals=6))
rc = torch.tensor([2.8], requires_grad=True)
y = torch.tensor([0.3])
for _ in range(20):
    y = rc * y * (1 - y)
y.backward()
print(torch.allclose(rc.grad, t))
