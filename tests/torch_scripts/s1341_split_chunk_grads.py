# split with sizes list, chunk uneven, tensor_split indices, unbind, and gradients flowing back
import torch

x = torch.arange(10.0, requires_grad=True)
a, b, c = x.split([2, 3, 5])
parts = x.chunk(3)
ts = torch.tensor_split(x, [1, 4])
print([p.shape[0] for p in parts], [t.tolist() for t in ts])
print(a, b.grad_fn.name(), parts[0].grad_fn.name())
(a.sum() * 1 + b.sum() * 2 + c.sum() * 3 + parts[2].sum() * 10 + ts[1].sum() * 100).backward()
print(x.grad)
m = torch.arange(6.0).reshape(2, 3).requires_grad_()
r0, r1 = m.unbind(0)
(r0 * r1).sum().backward()
print(m.grad, torch.hsplit(m.detach(), 3)[1], torch.vsplit(m.detach(), 2)[1])
