import torch

a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = a.exp()
b.mul_(2)
try:
    b.sum().backward()
except RuntimeError as e:
    print("RuntimeError", str(e)[:120])
print(a.grad, b._version)
b2 = a * 3
b2.mul_(2)
b2.sum().backward()
print(a.grad, b2._version)
c = torch.tensor([1.0, 2.0], requires_grad=True)
d = c.sigmoid()
d.add_(1)
try:
    d.sum().backward()
    print("ok")
except RuntimeError as e:
    print("RuntimeError", str(e)[:80])
e = torch.tensor([1.0, 2.0], requires_grad=True)
f = e * 2
g = f.view(2, 1)
g.mul_(3)
f.sum().backward()
print(e.grad, f.grad_fn.__class__.__name__)
h = torch.zeros(3)
h += 1
h[0] -= 5
h.clamp_(min=0).sqrt_()
print(h, h.add_(torch.ones(3), alpha=2), h.neg_().abs_(), h.fill_(1).masked_fill_(torch.tensor([True, False, True]), 7))
x = torch.ones(2, 2)
x.t_()
x.unsqueeze_(0)
print(x.shape, x.squeeze_().shape, x.resize_(4).shape, x.zero_().sum())
k = torch.tensor([1.0, 2.0], requires_grad=True)
with torch.no_grad():
    k.mul_(2)
    k.data.add_(1)
print(k, k.requires_grad, k.is_leaf)
m = torch.arange(4.0)
n = m[1:3]
n.copy_(torch.tensor([9.0, 8.0]))
m.index_put_((torch.tensor([0]),), torch.tensor(-1.0), accumulate=True)
print(m, torch.arange(4).bitwise_left_shift_(1) if hasattr(torch.Tensor, "bitwise_left_shift_") else 0)
q = torch.tensor([1.5, -2.5]).floor_().exp2_()
print(q, torch.tensor([1, 2]).double().pow_(2).lerp_(torch.zeros(2), 0.5))
try:
    torch.ones(2).expand(2, 2).mul_(2)
except RuntimeError as e:
    print("RuntimeError", e)
