import torch

p = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
q = p * 1
r = q * q
seen = []
r.grad_fn.register_hook(lambda gi, go: seen.append((gi, go)))
r.sum().backward()
gi, go = seen[0]
print(len(gi), gi[0], gi[1], go)
print(p.grad)
p.grad = None
q = p * 1
d = q / q
d.grad_fn.register_hook(lambda gi, go: print("div parts", gi))
d.sum().backward()
q = p * 1
m = torch.add(q, q, alpha=1)
m.grad_fn.register_hook(lambda gi, go: (gi[0] * 3, gi[1]))
p.grad = None
m.sum().backward()
print(p.grad)
