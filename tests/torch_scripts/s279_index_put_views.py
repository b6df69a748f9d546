import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
q = torch.zeros(3, 3)
q[0] = x
q[1, :2] = x[:2] * 2
q[:, 2] = x.sum()
print(q, type(q.grad_fn).__name__)
q[torch.tensor([2])] = x
print(type(q.grad_fn).__name__)
m = q[q > 2]
print(m, type(m.grad_fn).__name__)
q.sum().backward()
print(x.grad)
r = x.clone()
r[r > 1.5] = 0.0
print(r, type(r.grad_fn).__name__)
s = torch.zeros(2, 2)
s.diagonal().copy_(x[:2])
print(s, type(s.grad_fn).__name__)
t = x.detach().clone()
t[1:] += 10
print(t)
