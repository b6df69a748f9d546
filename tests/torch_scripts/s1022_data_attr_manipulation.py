# .data idioms from old tutorials: p.data -= lr * p.grad, p.grad.data.zero_(), p.data = new, copy_ under no_grad
import torch

w = torch.tensor([1.0, -1.0], requires_grad=True)
b = torch.tensor(0.5, requires_grad=True)
x = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
y = torch.tensor([1.0, 2.0])
for step in range(3):
    pred = x @ w + b
    loss = ((pred - y) ** 2).mean()
    loss.backward()
    w.data -= 0.01 * w.grad.data
    b.data = b.data - 0.01 * b.grad.data
    print(step, round(loss.item(), 6), [round(g, 6) for g in w.grad.tolist()], round(b.grad.item(), 6))
    w.grad.data.zero_()
    b.grad.zero_()
print(w, b, w.is_leaf, b.requires_grad)
w.data = torch.tensor([0.0, 0.0, 0.0])
print(w.shape, w.requires_grad)
with torch.no_grad():
    w.copy_(torch.tensor([1.0, 2.0, 3.0]))
    w[0] = 10
print(w, w.grad_fn)
v = torch.tensor([1.0], requires_grad=True)
u = v * 3
u.data.mul_(2)
print(u, u.requires_grad)
try:
    w.data.requires_grad_()
    print(w.data.requires_grad)
except RuntimeError as e:
    print(e)
