import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = torch.tensor([3.0], requires_grad=True)
out = (x ** 2).sum()
try:
    torch.autograd.grad(out, [x, y], retain_graph=True)
except RuntimeError as e:
    print("RuntimeError:", e)
gx, gy = torch.autograd.grad(out, [x, y], allow_unused=True, retain_graph=True)
print(gx, gy)
gx, gy = torch.autograd.grad(out, [x, y], allow_unused=True, materialize_grads=True)
print(gx, gy)
z = x * 3
z.retain_grad()
w = z.sin().sum()
w.backward()
print(z.grad.round(decimals=5), z.is_leaf, z.retains_grad, x.retains_grad)
print(x.grad.round(decimals=5))
a = torch.tensor(2.0, requires_grad=True)
(g,) = torch.autograd.grad(a ** 3, a, create_graph=True)
(gg,) = torch.autograd.grad(g, a)
print(g, gg)
