import torch

x = torch.arange(12.0).reshape(3, 4)
m = x % 3 == 0
print(m)
print(x[m])
x[m] = -1
print(x)
x[x < 0] += 100
print(x)
y = torch.arange(12.0).reshape(3, 4)
rows = torch.tensor([0, 2, 2])
cols = torch.tensor([1, 3, 0])
print(y[rows, cols])
y[rows, cols] = torch.tensor([10.0, 20.0, 30.0])
print(y)
print(y[[0, 1]][:, [1, 2]])
print(y[torch.tensor([True, False, True])])
print(y[..., 1::2])
print(y[None, 1:, -1].shape)
z = torch.zeros(5)
idx = torch.tensor([0, 1, 1, 3])
z[idx] += 1
print(z)
z2 = torch.zeros(5).index_put_((idx,), torch.ones(4), accumulate=True)
print(z2)
w = torch.ones(3, 3, requires_grad=True)
v = w * 2
v[1, :] = 0
v[:, 2] *= 3
v.sum().backward()
print(v, w.grad)
q = torch.arange(24).reshape(2, 3, 4)
print(q[:, [0, 2], :][..., [1, 3]])
print(q[[1, 0], :, [2, 3]])
print(q[:, 1:, torch.tensor([0, 0])].shape)
