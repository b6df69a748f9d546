import torch
from torch.autograd.functional import jacobian, hessian, vjp, jvp, hvp, vhp

def f(x): return x ** 2 + x.sin()
x = torch.tensor([0.5, 1.0, 2.0])
print(jacobian(f, x))
def g(x, y): return (x * y).sum() + x.pow(3).sum()
print(hessian(lambda z: z.pow(3).sum(), x))
print(jacobian(lambda a, b: a * b, (x, x + 1)))
print(hessian(g, (x, x)))
out, v = vjp(f, x, torch.ones(3))
print(out, v)
out, j = jvp(f, x, torch.ones(3))
print(out, j)
print(hvp(lambda z: z.pow(3).sum(), x, torch.ones(3)))
print(vhp(lambda z: z.pow(3).sum(), x, torch.ones(3)))
J = jacobian(f, x, create_graph=True, vectorize=True)
print(J.requires_grad)
print(jacobian(lambda z: z.sum(), torch.ones(2, 2)).shape)
print(jacobian(lambda z: z @ z.T, torch.ones(2, 3)).shape)
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x ** 3
g1, = torch.autograd.grad(y.sum(), x, create_graph=True)
g2, = torch.autograd.grad(g1.sum(), x)
print(g1, g2)
a = torch.tensor(2.0, requires_grad=True)
b = a * a
b.backward(retain_graph=True)
b.backward(retain_graph=True)
print(a.grad)
print(torch.autograd.grad(b, a, allow_unused=True))
try:
    b.backward()
    b.backward()
except RuntimeError as e:
    print("RuntimeError", str(e)[:60])
c = torch.tensor(1.0, requires_grad=True)
print(torch.autograd.grad(a * 3, [a, c], allow_unused=True))
print(torch.autograd.grad(a * 3, [a, c], allow_unused=True, materialize_grads=True))
