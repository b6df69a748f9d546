import torch

base = torch.zeros(3, 4, requires_grad=True)
x = base.clone()
x[:, 1] = torch.tensor([1.0, 2.0, 3.0])
x[0] = 5.0
x[[1, 2], [0, 3]] = torch.tensor(9.0)
x[x > 4] *= 2
print(x)
val = torch.tensor([1.0, -1.0, 0.5, 2.0], requires_grad=True)
y = torch.zeros(3, 4)
y = y.index_put((torch.tensor([0, 2]),), val)
print(y)
(y * torch.arange(12.0).reshape(3, 4)).sum().backward()
print(val.grad)
w = torch.arange(6.0).reshape(2, 3).requires_grad_()
z = w.clone()
z[:, [0, 2]] = z[:, [2, 0]]
z.sum(0).pow(2).sum().backward()
print(z, w.grad)
m = torch.ones(2, 3, requires_grad=True)
q = m * torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
mask = torch.tensor([[True, False, True], [False, True, False]])
q = q.masked_fill(mask, 0.0)
q.sum().backward()
print(q, m.grad)
r = torch.arange(10.0)
r[2:8:2] = torch.tensor([-1.0, -2.0, -3.0])
r[-1:] = 100
r[torch.tensor([0, 0])] = torch.tensor([7.0, 8.0])
print(r)
s = torch.zeros(2, 2, 2)
s[..., 0] = torch.tensor([1.0, 2.0])
s[:, None, 1, 1] = 3.0
print(s)
t = torch.zeros(4)
t[torch.tensor([True, False, True, False])] = torch.tensor([5.0, 6.0])
print(t)
