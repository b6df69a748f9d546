import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
log = []
h1 = x.register_hook(lambda g: log.append(("x", g.tolist())))
y = x * x
y.retain_grad()
h2 = y.register_hook(lambda g: g * 10)
z = y.sum() * 0.5
z.backward()
print(log, y.grad, x.grad)
h2.remove()
x.grad = None
log.clear()
(x * x).sum().backward()
print(log, x.grad)
h1.remove()
x.grad.zero_()
mid = x.exp()
mid.retain_grad()
mid.register_hook(lambda g: print("hook sees", g.round(decimals=4).tolist()))
out = (mid * torch.tensor([1.0, 0.0, -1.0])).sum()
out.backward()
print(mid.grad, mid.retains_grad, x.grad.round(decimals=4))
leaf = torch.ones(2, requires_grad=True)
order = []
leaf.register_hook(lambda g: order.append("first") or g + 1)
leaf.register_hook(lambda g: order.append("second") or g * 2)
(leaf * 3).sum().backward()
print(order, leaf.grad)
acc = torch.zeros(2, requires_grad=True)
acc.register_post_accumulate_grad_hook(lambda p: order.append(("post", p.grad.tolist())))
(acc + 1).sum().backward()
print(order[-1])
try:
    torch.ones(2).register_hook(lambda g: g)
except RuntimeError as e:
    print("RuntimeError:", e)
nl = torch.ones(2, requires_grad=True) * 2
print(nl.is_leaf, nl.retains_grad)
nl.retain_grad()
nl.retain_grad()
nl.sum().backward()
print(nl.grad)
