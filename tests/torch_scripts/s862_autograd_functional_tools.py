# torch.autograd.functional: jacobian of a function of two inputs, vjp/jvp/hvp/vhp, hessian
# with create_graph=False, and strategy='forward-mode' with vectorize
import torch
from torch.autograd.functional import hessian, hvp, jacobian, jvp, vhp, vjp


def f(x, y):
    return torch.stack([x[0] * y, x[1] ** 2 + y, torch.sin(x[0])])


x = torch.tensor([1.0, 2.0])
y = torch.tensor(0.5)
jx, jy = jacobian(f, (x, y))
print(jx, jy)
out, v = vjp(lambda x: f(x, y), x, torch.tensor([1.0, 1.0, 1.0]))
print(out, v)
out, t = jvp(lambda x: f(x, y), x, torch.tensor([1.0, 0.0]))
print(t)
g = lambda z: (z ** 3).sum() + z[0] * z[1]
print(hessian(g, x), hvp(g, x, torch.tensor([1.0, -1.0]))[1], vhp(g, x, torch.tensor([0.0, 1.0]))[1])
print(jacobian(lambda z: z ** 2, x, vectorize=True, strategy="forward-mode"))
print(jacobian(lambda a, b: a * b, (x, x)))
