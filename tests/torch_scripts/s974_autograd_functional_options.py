# torch.autograd.functional: jacobian with tuples, vectorize, create_graph; hessian of two inputs; vjp/jvp/vhp/hvp
import torch
from torch.autograd.functional import jacobian, hessian, vjp, jvp, vhp, hvp

def f(x, y):
    return torch.stack([x.pow(2).sum() * y[0], (x * y).sum(), y.prod()])

x = torch.tensor([1.0, 2.0])
y = torch.tensor([0.5, -1.0])
jx, jy = jacobian(f, (x, y))
print(jx, jy, sep="\n")
print(jacobian(f, (x, y), vectorize=True)[1])
print(jacobian(lambda t: t.exp(), x, strategy="reverse-mode").diagonal())
g = lambda x, y: (x ** 2 * y).sum() + x[0] * y[1] ** 3
H = hessian(g, (x, y))
print([[h.tolist() for h in row] for row in H])
out, v = vjp(lambda t: t ** 3, x, torch.tensor([1.0, 0.5]))
print(out, v)
out, t = jvp(lambda t: t.sin() * t, x, torch.tensor([1.0, 1.0]))
print(out.round(decimals=4), t.round(decimals=4))
print(vhp(lambda t: (t ** 3).sum(), x, torch.tensor([1.0, 2.0])))
print(hvp(lambda t: t.prod() * t.sum(), x, torch.tensor([1.0, 0.0])))
xx = x.clone().requires_grad_()
J = jacobian(lambda t: t ** 2, xx, create_graph=True)
J.sum().backward()
print(J.requires_grad, xx.grad)
print(jacobian(lambda t: t.sum(), x).shape, jacobian(lambda t: t.outer(t), x).shape)
