# Autograd explanations from blog posts: vector-Jacobian products with backward(gradient=...),
# jacobian/hessian helpers, grad of grad, no_grad vs detach, requires_grad propagation
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * 2
while y.data.norm() < 100:
    y = y * 2
print(y, y.grad_fn.name())
v = torch.tensor([0.1, 1.0, 0.0001], dtype=torch.float)
y.backward(v.to(y.dtype))
print(x.grad)
a = torch.tensor([2., 3.], requires_grad=True)
b = torch.tensor([6., 4.], requires_grad=True)
Q = 3 * a ** 3 - b ** 2
external_grad = torch.tensor([1., 1.])
Q.backward(gradient=external_grad)
print(9 * a ** 2 == a.grad, -2 * b == b.grad)
x = torch.rand(5, 5)
y = torch.rand(5, 5)
z = torch.rand((5, 5), requires_grad=True)
a = x + y
print(f"Does `a` require gradients?: {a.requires_grad}")
b = x + z
print(f"Does `b` require gradients?: {b.requires_grad}")


def f(x):
    return x[0] ** 2 * x[1] + torch.sin(x[1])


x0 = torch.tensor([1.5, -0.5])
print(torch.autograd.functional.jacobian(f, x0), torch.autograd.functional.hessian(f, x0))
xs = torch.tensor(2.0, requires_grad=True)
ys = xs ** 3
g1, = torch.autograd.grad(ys, xs, create_graph=True)
g2, = torch.autograd.grad(g1, xs, create_graph=True)
g3, = torch.autograd.grad(g2, xs)
print(g1, g2, g3)
w = torch.ones(3, requires_grad=True)
with torch.no_grad():
    p = w * 2
q = (w * 2).detach()
print(p.requires_grad, q.requires_grad, p.grad_fn, (w * 2).requires_grad)
out = (w ** 2).sum()
out.backward(retain_graph=True)
out.backward()
print(w.grad)
try:
    out.backward()
    out.backward()
except RuntimeError as e:
    print("RuntimeError:", str(e)[:60])
print(torch.is_grad_enabled())
torch.set_grad_enabled(False)
print((w * 2).requires_grad)
torch.set_grad_enabled(True)
J = torch.autograd.functional.jacobian(lambda t: t.exp() * t.sum(), torch.tensor([0.0, 1.0]))
print(J)
