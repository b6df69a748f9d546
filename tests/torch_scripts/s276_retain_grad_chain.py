import torch

x = torch.tensor([[1.0, -1.0], [2.0, 0.5]], requires_grad=True)
h = x @ x.T
h.retain_grad()
a = torch.relu(h - 1)
a.retain_grad()
loss = a.pow(2).mean()
loss.backward()
print(h.grad, a.grad)
print(x.grad)
print(type(h.grad_fn).__name__, type(a.grad_fn).__name__, type(loss.grad_fn).__name__)
print(type(loss.grad_fn.next_functions[0][0]).__name__)
x.grad.zero_()
v = x.view(4)
v.retain_grad()
(v * torch.arange(4.0)).sum().backward()
print(v.grad, x.grad)
