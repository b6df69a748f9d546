# Hessian-vector product with torch.func (jvp over grad) and torch.autograd.functional.hvp agree
import torch
from torch.func import grad, jvp, vjp, hessian

def f(x):
    return (x[0] ** 2 * x[1] ** 3).sum() + torch.cos(x).sum()

x = torch.tensor([1.0, 2.0])
v = torch.tensor([0.5, -1.0])
_, fwd_over_rev = jvp(grad(f), (x,), (v,))
_, vjp_fn = vjp(grad(f), x)
rev_over_rev, = vjp_fn(v)
_, ref = torch.autograd.functional.hvp(f, x, v)
print(fwd_over_rev.round(decimals=6), rev_over_rev.round(decimals=6), ref.round(decimals=6))
print((hessian(f)(x) @ v).round(decimals=6))
print(torch.allclose(fwd_over_rev, ref), torch.allclose(rev_over_rev, ref))
