import torch

a = torch.arange(6.0).reshape(2, 3)
v = a[:, 1:]
v.mul_(10)
print(a)
t = a.t()
t[0, 1] = -1
print(a, t.is_contiguous())
x = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
y = x.clone()
y[1:3] *= 2
y[0] = y[3] * 5
y.sum().backward()
print(x.grad)
x.grad = None
z = x * 1
w = z.view(2, 2)
w[0].add_(1)
w.exp_()
z.sum().backward()
print(x.grad.round(decimals=4))
try:
    torch.ones(2, requires_grad=True).add_(1)
except RuntimeError as e:
    print("RuntimeError", str(e)[:60])
p = torch.ones(3, requires_grad=True)
s = p.sigmoid()
s.mul_(2)
try:
    s.sum().backward()
    print("ok", p.grad)
except RuntimeError as e:
    print("RuntimeError", "modified by an inplace operation" in str(e))
e = torch.zeros(4)
e.view(2, 2)[:, 0].fill_(7)
print(e, e.unsqueeze(0).squeeze_(0).shape)
q = torch.arange(4.0)
q[[0, 0, 2]] += 1
print(q)
q.index_put_((torch.tensor([1, 1]),), torch.tensor([5.0, 6.0]), accumulate=True)
print(q)
print(torch.arange(6).view(2, 3)[:, ::2].clone().stride())
