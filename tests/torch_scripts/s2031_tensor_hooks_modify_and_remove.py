import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * 2
seen = []
h1 = y.register_hook(lambda g: seen.append(g.clone()))
h2 = y.register_hook(lambda g: g * 10)
z = (y ** 2).sum()
z.backward(retain_graph=True)
print(seen[0], x.grad)
h2.remove()
x.grad = None
z.backward()
print(seen[1], x.grad, len(seen))

w = torch.tensor([0.5, -0.5], requires_grad=True)
w.register_hook(lambda g: g.clamp(-1, 1))
loss = (w * torch.tensor([5.0, 0.2])).sum()
loss.backward()
print(w.grad)

a = torch.tensor(2.0, requires_grad=True)
b = a * a
b.retain_grad()
b.register_hook(lambda g: print("hook on b", g))
c = b * 3
c.backward()
print(b.grad, a.grad)

acc = []
p = torch.tensor([1.0, 1.0], requires_grad=True)
h = p.register_post_accumulate_grad_hook(lambda t: acc.append(t.grad.clone()))
(p * 3).sum().backward()
(p * 4).sum().backward()
print(acc)
h.remove()
(p * 5).sum().backward()
print(len(acc), p.grad)
