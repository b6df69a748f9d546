import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
seen = []
hx = x.register_hook(lambda g: seen.append(("x", g.clone())))
y = x * x
y.retain_grad()
hy = y.register_hook(lambda g: g * 10)
z = y.sum() + (y * x).sum()
z.backward(retain_graph=True)
print(x.grad, y.grad, seen)
hy.remove()
x.grad.zero_()
z.backward()
print(x.grad, y.grad)
print(y.retains_grad, x.retains_grad, z.is_leaf)
hx.remove()
a = torch.tensor(2.0, requires_grad=True)
a.register_post_accumulate_grad_hook(lambda p: print("accumulated", p.grad))
(a * 3).backward()
(a * 4).backward()
print(a.grad)
b = torch.tensor([1.0, -1.0], requires_grad=True)
c = b.exp()
c.register_hook(lambda g: print("grad of c", g))
c.register_hook(lambda g: g.clamp(max=0.5))
(c * torch.tensor([1.0, 2.0])).sum().backward()
print(b.grad)
try:
    torch.tensor([1.0]).register_hook(lambda g: g)
except RuntimeError as e:
    print("RuntimeError:", e)
