import torch

w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
a = w * 2
a.zero_()
print(a)
b = (w + 1).fill_(4.0)
print(b)
v = torch.tensor(0.5, requires_grad=True)
c = (w * 3).fill_(v)
print(c)
(c * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
print(w.grad, v.grad)
d = torch.empty(2, 3).fill_(7)
print(d, d.requires_grad)
e = torch.ones(2, 2)
e[0].zero_()
print(e)
