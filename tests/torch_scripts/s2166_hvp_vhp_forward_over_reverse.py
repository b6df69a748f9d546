import torch
from torch.autograd.functional import hvp, vhp, hessian
from torch.func import jvp, grad

def f(x):
    return (x[0] ** 2 * x[1] + torch.sin(x[1]) * x[2] + x[2] ** 3).sum()

x = torch.tensor([1.0, 2.0, 0.5])
v = torch.tensor([1.0, 0.0, -1.0])
val, hv = hvp(f, x, v)
_, vh = vhp(f, x, v)
H = hessian(f, x)
print(round(val.item(), 6), hv.round(decimals=5), vh.round(decimals=5))
print(torch.allclose(hv, H @ v), torch.allclose(vh, v @ H))
_, hv2 = jvp(grad(f), (x,), (v,))
print(torch.allclose(hv2, hv))
xg = x.clone().requires_grad_()
g, = torch.autograd.grad(f(xg), xg, create_graph=True)
hv3, = torch.autograd.grad(g, xg, grad_outputs=v)
print(torch.allclose(hv3, hv))
def pair(a, b):
    return (a * b).sum() ** 2
res = hvp(pair, (torch.tensor([1.0, 2.0]), torch.tensor([0.5, -1.0])), (torch.ones(2), torch.zeros(2)))
print([t.round(decimals=4) for t in res[1]])
H2 = hessian(pair, (torch.tensor([1.0, 2.0]), torch.tensor([0.5, -1.0])))
print(H2[0][1])
