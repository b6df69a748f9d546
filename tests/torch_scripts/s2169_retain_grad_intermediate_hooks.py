import torch

x = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
h = x * 2
h.retain_grad()
order = []
h.register_hook(lambda g: order.append(("h", g.tolist())))
k = h.relu()
k.register_hook(lambda g: order.append(("k", g.tolist())) or g * 10)
x.register_hook(lambda g: order.append(("x", g.tolist())))
loss = (k * torch.tensor([1.0, 2.0, 3.0])).sum()
loss.backward()
print(order)
print(h.grad, x.grad)
print(h.is_leaf, h.retains_grad, k.retains_grad, x.retains_grad)
a = torch.tensor(2.0, requires_grad=True)
b = a ** 3
handle = b.register_hook(lambda g: g * 0)
b.backward(retain_graph=True)
print(a.grad)
handle.remove()
b.backward()
print(a.grad)
leaf = torch.tensor([1.0, 1.0], requires_grad=True)
leaf.register_post_accumulate_grad_hook(lambda p: order.append(("post", p.grad.tolist())))
(leaf * 4).sum().backward()
print(order[-1])
