import torch

w = torch.tensor([1.0, -2.0], requires_grad=True)
for i in range(3):
    (w * (i + 1)).pow(2).sum().backward()
print(w.grad)
w.grad = None
l1 = (w ** 3).sum()
l2 = w.exp().sum()
torch.autograd.backward([l1, l2])
print(w.grad)
g = torch.autograd.grad((w ** 3).sum() * 0 + (w ** 2).sum(), w, create_graph=True)[0]
print(g.requires_grad, g.grad_fn is not None)
hv = torch.autograd.grad(g @ torch.tensor([1.0, 0.0]), w)[0]
print(hv)
x = torch.linspace(-1, 1, 5, requires_grad=True)
y = torch.where(x > 0, x.sqrt(), torch.zeros_like(x))
y.sum().backward()
print(x.grad)
z = torch.tensor([0.0], requires_grad=True)
(z.abs() + z.clamp(min=0) + torch.relu(z) + z.sqrt() * 0).backward()
print(z.grad)
m = torch.tensor([2.0, 2.0, 1.0], requires_grad=True)
m.max().backward()
print(m.grad)
m.grad = None
m.amax().backward()
print(m.grad)
s = torch.tensor([1.0, 1.0, 3.0], requires_grad=True)
s.median().backward()
print(s.grad)
n = torch.tensor([3.0, 4.0], requires_grad=True)
n.norm().backward()
print(n.grad)
q = torch.zeros(2, requires_grad=True)
q.norm().backward()
print(q.grad)
