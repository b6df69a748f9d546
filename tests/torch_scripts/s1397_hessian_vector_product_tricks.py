# Hessian-vector products: double backward, autograd.functional.hvp/vhp, func jvp-of-grad
import torch
from torch.func import grad, jvp

def f(x):
    return (x[0] ** 2 * x[1] + x[1].exp() * x[2] + x.pow(4).sum() / 4)

x = torch.tensor([1.0, 0.5, -1.0])
v = torch.tensor([1.0, -2.0, 0.5])
xr = x.clone().requires_grad_()
(g,) = torch.autograd.grad(f(xr), xr, create_graph=True)
(hv1,) = torch.autograd.grad(g @ v, xr)
print(hv1)
print(torch.autograd.functional.hvp(f, x, v)[1])
print(torch.autograd.functional.vhp(f, x, v)[1])
print(jvp(grad(f), (x,), (v,))[1])
