# torch.autograd.backward over several outputs with grad_tensors, None seeds for scalars, views with retain_grad
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y1 = x * 2
y2 = (x ** 2).sum()
torch.autograd.backward([y1, y2], [torch.tensor([1.0, 0.0, -1.0]), None])
print(x.grad)
x.grad = None
torch.autograd.backward((y1.sum(), y2 * 0), retain_graph=False) if False else None
v = x[1:]
v.retain_grad()
(v * torch.tensor([5.0, 7.0])).sum().backward()
print(v.grad, x.grad)
x.grad.zero_()
w = x.view(3, 1)
w.retain_grad()
w.retain_grad()
(w @ torch.tensor([[2.0]])).sum().backward()
print(w.grad.view(-1), x.grad)
s = sum(t * t for t in x.unbind())
print(s, type(s).__name__)
st = torch.stack([x[0] * 2, x[2].exp().log(), torch.tensor(9.0)])
print(st)
x.grad = None
st.sum().backward()
print(x.grad)
p = torch.nn.Parameter(torch.tensor([1.0, 2.0]))
q = p * 2
print(type(q).__name__, type(p.detach()).__name__, type(p.data).__name__, p.data.requires_grad)
print(repr(p), repr(torch.nn.Parameter(torch.tensor([1.0]), requires_grad=False)))
