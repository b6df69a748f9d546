# gradient accumulation semantics: backward twice with retain_graph, zero_grad(set_to_none), grad of shared subgraph, detach_ on non-leaf
import torch

w = torch.tensor([1.0, -1.0], requires_grad=True)
h = w * 2
loss1 = (h ** 2).sum()
loss2 = h.sum()
loss1.backward(retain_graph=True)
print(w.grad)
loss2.backward()
print(w.grad)
try:
    loss1.backward()
except RuntimeError as e:
    print(str(e)[:60])
print(w.grad)
opt = torch.optim.SGD([w], lr=0.1)
opt.zero_grad(set_to_none=False)
print(w.grad)
opt.zero_grad()
print(w.grad)
a = torch.tensor(3.0, requires_grad=True)
b = a * a
c = b.detach()
c.add_(1)
print(b, c)
d = a * 2
d.detach_()
print(d.requires_grad, d.grad_fn, d.is_leaf)
e = a.exp()
(e + e).backward()
print(a.grad.item() == 2 * torch.exp(torch.tensor(3.0)).item())
f = torch.tensor([1.0, 2.0], requires_grad=True)
g = f.clone()
g[0] = g[1] * 5
g.sum().backward()
print(f.grad, g.grad_fn.name())
