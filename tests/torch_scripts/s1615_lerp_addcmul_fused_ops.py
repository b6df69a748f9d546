# fused elementwise helpers: lerp, addcmul, addcdiv, addmm/addbmm/baddbmm with alpha/beta
import torch

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, -2.0], requires_grad=True)
w = torch.tensor([0.25, 0.5], requires_grad=True)
l = torch.lerp(a, b, w)
l.sum().backward()
print(l, a.grad, b.grad, w.grad, l.grad_fn.name())
c = torch.addcmul(a.detach(), b.detach(), w.detach(), value=2)
print(c, torch.addcdiv(a.detach(), b.detach(), w.detach(), value=0.5))
M = torch.ones(2, 2, requires_grad=True)
m1 = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
y = torch.addmm(M, m1, m1, beta=0.5, alpha=2.0)
y.sum().backward()
print(y, M.grad, m1.grad)
bm = torch.arange(8.0).reshape(2, 2, 2)
print(torch.baddbmm(torch.zeros(2, 2, 2), bm, bm, alpha=0.5)[1], torch.addbmm(torch.zeros(2, 2), bm, bm))
print(torch.addmv(torch.ones(2), m1.detach(), torch.tensor([1.0, 1.0]), beta=0), torch.addr(torch.zeros(2, 2), a.detach(), b.detach()))
