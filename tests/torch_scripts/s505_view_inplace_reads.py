import torch

base = torch.arange(12, dtype=torch.float64)
v = base.view(3, 4)
v[1].mul_(10)
print(base)
t = v.t()
t[0, 2] = -1.0
print(base[8], v[2, 0])
s = base[::3]
s.add_(0.5)
print(base, s)
print(base._version > 0, v._base is base, s._base is base)
u = v.unsqueeze(0)
u.squeeze_(0)
print(u.shape, u.data_ptr() == base.data_ptr())
x = torch.ones(2, 3)
y = x.view(-1)
y[::2] = 7.0
print(x)
x.t_()
print(x.shape, x, y.shape)
z = torch.zeros(4)
w = z.narrow(0, 1, 2)
w.fill_(3.0)
print(z, w)
e = z.expand(3, 4)
print(e.stride(), e.sum().item())
a = torch.arange(6.0).view(2, 3)
b = a.reshape(3, 2)
c = a.transpose(0, 1).reshape(6)
b[0, 0] = 100
print(a[0, 0].item(), c[0].item())
print(a.unfold(1, 2, 1).shape, a.diagonal(), a.diag_embed().shape)
leaf = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
h = leaf * 1
hv = h[1:]
hv.mul_(2)
h.sum().backward()
print(leaf.grad, h.grad_fn.name())
