import torch

x = torch.zeros(4, 5)
x[[0, 2]] = torch.tensor([1.0, 2.0, 3.0, 4.0, 5.0])
x[:, [1, 3]] = torch.tensor([[9.0], [8.0], [7.0], [6.0]])
x[torch.tensor([1, 3]), torch.tensor([0, 4])] = -1.0
print(x)
m = x > 2
x[m] = 0.5
print(x, m.sum())
y = torch.arange(12.0).reshape(3, 4)
y[y % 3 == 0] *= -1
print(y)
y[1:, ::2] = torch.tensor([100.0, 200.0])
print(y)
idx = torch.tensor([0, 0, 2, 2, 2])
z = torch.zeros(4)
z[idx] += 1
print(z)
z2 = torch.zeros(4).index_put_((idx,), torch.ones(5), accumulate=True)
print(z2)
w = torch.zeros(3, 3)
w[torch.arange(3), torch.arange(3)] = torch.tensor([1.0, 2.0, 3.0])
w[..., 0] = w[..., 0] + 10
print(w)
r = torch.arange(6.0).reshape(2, 3)
r.masked_fill_(torch.tensor([True, False, True]), -5.0)
print(r)
ms = torch.zeros(2, 3).masked_scatter(torch.tensor([[True, False, True], [False, True, False]]), torch.tensor([7.0, 8.0, 9.0, 10.0]))
print(ms)
b = torch.arange(24).reshape(2, 3, 4)
print(b[:, [0, 2], 1:3], b[[1], :, [3]], b[..., torch.tensor([[0, 1], [2, 3]])].shape)
print(b[1, torch.tensor([True, False, True])], b[None, 0, ..., None].shape)
print(torch.nonzero(b % 7 == 0), torch.nonzero(b[0] % 5 == 0, as_tuple=True))
p = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
q = p.clone()
q[torch.tensor([0, 2])] = q[torch.tensor([2, 0])] * 2
q.sum().backward()
print(q, p.grad)
v = torch.tensor([3.0, -1.0, 2.0], requires_grad=True)
out = torch.where(v > 0, v.sqrt(), torch.zeros(()))
out.sum().backward()
print(out, v.grad)
