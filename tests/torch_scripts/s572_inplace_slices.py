import torch

x = torch.zeros(3, 4)
x[1:3] += 1
x[:, 0].mul_(2).add_(5)
x[0, ::2] = torch.tensor([9.0, 8.0])
print(x)
x[x > 5] -= 5
print(x)
x.index_fill_(1, torch.tensor([3]), -1.0)
print(x)
y = torch.arange(6.0)
y[[0, 2]] = torch.tensor([10.0, 20.0])
y[y > 4] = 0
print(y)
mask = torch.tensor([True, False, True, False, False, True])
z = torch.zeros(6).masked_scatter_(mask, torch.tensor([1.0, 2.0, 3.0, 4.0]))
print(z)
w = torch.ones(2, 3)
w.masked_fill_(torch.tensor([[True, False, False], [False, False, True]]), float("nan"))
print(w, w.isnan().sum())
row = w[0]
row.fill_(7)
print(w)
v = torch.arange(4.0)
v.clamp_(1, 2).sqrt_()
print(v, v.exp_().log_())
a = torch.arange(10.0)
a[2:8:2] *= torch.tensor([10.0, 100.0, 1000.0])
print(a)
b = a.view(2, 5)
b[:, -1] = 0
print(a)
c = torch.ones(3, 3)
c.diagonal().copy_(torch.tensor([1.0, 2.0, 3.0]))
print(c, c.trace())
d = torch.zeros(4, 4)
d.fill_diagonal_(5)
print(d.diag())
leaf = torch.ones(3, requires_grad=True)
h = leaf * 2
h[1] = 0
h.sum().backward()
print(leaf.grad, h.grad_fn.name())
try:
    leaf[0] = 1
except RuntimeError as e:
    print("RuntimeError", e)
