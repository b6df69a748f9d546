# hvp and vhp agree for a symmetric Hessian; create_graph lets us differentiate the product
import torch
from torch.autograd.functional import hvp, vhp

def f(x):
    return (x ** 4).sum() + x[0] * x[1] * x[2]

x = torch.tensor([1.0, -2.0, 0.5], requires_grad=True)
v = torch.tensor([1.0, 1.0, 0.0])
val, hv = hvp(f, x, v, create_graph=True)
val2, vh = vhp(f, x, v)
print(val.item(), hv, vh)
print(torch.allclose(hv, vh))
hv.sum().backward()
print(x.grad)
