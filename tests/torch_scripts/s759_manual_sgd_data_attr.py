# Old-school manual updates: .data, grad.zero_(), in-place under no_grad, weight decay by hand,
# leaf checks, retain_grad, and the common "w.grad is None" printouts
import torch

torch.manual_seed(0)
x = torch.linspace(0, 1, 10).view(-1, 1)
y = 2 * x + 1
w = torch.zeros(1, 1, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
print(w.is_leaf, w.grad, w.grad_fn)
lr = 0.5
for epoch in range(50):
    y_hat = x.mm(w) + b
    loss = ((y_hat - y) ** 2).mean()
    loss.backward()
    w.data -= lr * w.grad.data
    b.data = b.data - lr * b.grad.data
    w.grad.data.zero_()
    b.grad.zero_()
print(w.item(), b.item(), round(loss.item(), 8) < 1e-2)
print(w.grad, b.grad, type(loss.grad_fn).__name__)
v = torch.tensor([1.0, 2.0], requires_grad=True)
h = v * 3
h.retain_grad()
out = (h ** 2).sum()
out.backward()
print(h.grad, v.grad, h.is_leaf, out.is_leaf)
with torch.no_grad():
    v.mul_(0.9).add_(v.grad, alpha=-0.01)
    v -= 0.001 * v
print(v, v.requires_grad, v.is_leaf)
v.grad = None
u = v.detach().clone()
u += 1
print(u, v, u.requires_grad)
m = torch.nn.Linear(2, 1)
with torch.no_grad():
    m.weight.data = torch.tensor([[1.0, -1.0]])
    m.bias.data.fill_(0.5)
print(m.weight, m(torch.tensor([[3.0, 1.0]])))
m.weight.data.uniform_(-0.1, 0.1)
print(m.weight.abs().max().item() <= 0.1, m.weight.requires_grad)
l = m(torch.ones(1, 2)).sum()
l.backward()
for p in m.parameters():
    p.data.add_(-0.1 * p.grad.data - 0.01 * p.data)
print(m.bias.data, m.weight.grad)
