# torch.autograd.functional: jacobian of multi-input functions, vjp/jvp/hvp/vhp outputs
import torch
from torch.autograd.functional import jacobian, hessian, vjp, jvp, hvp, vhp

def f(x, y):
    return torch.stack([x.sum() * y[0], (x * y).prod()])

x = torch.tensor([1.0, 2.0])
y = torch.tensor([3.0, -1.0])
J = jacobian(f, (x, y))
print(type(J).__name__, len(J), [j.shape for j in J])
print(J)
out, v = vjp(f, (x, y), torch.tensor([1.0, 2.0]))
print(out, v)
out, t = jvp(lambda a: a.exp() * a, x, torch.tensor([1.0, 0.5]))
print(out.round(decimals=5), t.round(decimals=5))
def s(a):
    return (a ** 3).sum() + a[0] * a[1]
print(hvp(s, x, torch.tensor([1.0, 1.0])), vhp(s, x, torch.tensor([0.0, 1.0])))
print(hessian(lambda a, b: (a * b).sum(), (x, y)))
print(jacobian(lambda a: a ** 2, x, vectorize=True), jacobian(lambda a: a.sum(), x, create_graph=True).requires_grad)
