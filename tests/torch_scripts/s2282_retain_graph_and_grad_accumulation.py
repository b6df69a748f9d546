import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x ** 2
z = y.sum()
z.backward(retain_graph=True)
print(x.grad)
z.backward(retain_graph=True)
print(x.grad)
z.backward()
print(x.grad)
try:
    z.backward()
except RuntimeError as e:
    print(str(e).splitlines()[0][:90])
x.grad = None
w = x * x.sum()
w.backward(torch.tensor([1.0, 0.0, 0.0]))
print(x.grad)
print(y.grad, y.requires_grad, y.is_leaf)
a = torch.tensor(2.0, requires_grad=True)
b = a ** 3
b.retain_grad()
c = b * 4
c.backward()
print(a.grad, b.grad, b.retains_grad, a.retains_grad)
g = torch.tensor([0.5, 1.5], requires_grad=True)
out = (g.exp() * g).sum()
(d1,) = torch.autograd.grad(out, g, create_graph=True)
(d2,) = torch.autograd.grad(d1.sum(), g, retain_graph=True)
print(d1, d2)
print(torch.autograd.grad(d1.sum(), g, allow_unused=False)[0].round(decimals=6))
u = torch.tensor(1.0, requires_grad=True)
v = torch.tensor(1.0, requires_grad=True)
print(torch.autograd.grad(u * 3, [u, v], allow_unused=True))
print(torch.autograd.grad(u * 3, [u, v], allow_unused=True, materialize_grads=True))
