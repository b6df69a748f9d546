import torch

x = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
with torch.no_grad():
    y = x * 2
print(y.requires_grad, y.grad_fn, torch.is_grad_enabled())


@torch.no_grad()
def doubler(t):
    return t * 2


print(doubler(x).requires_grad, torch.is_grad_enabled())
with torch.enable_grad():
    print((x * 2).requires_grad)
with torch.set_grad_enabled(False):
    print((x * 2).requires_grad)
torch.set_grad_enabled(True)
with torch.inference_mode():
    z = x * 3
print(z.requires_grad, z.is_inference(), x.is_inference())
try:
    (z * x).sum().backward()
except RuntimeError as e:
    print(type(e).__name__, str(e).splitlines()[0][:70])
d = x.detach()
d[0] = 100.0
print(x, d.requires_grad)
x2 = torch.tensor([1.0, 2.0], requires_grad=True)
e = x2.detach().requires_grad_()
(e * 2).sum().backward()
print(e.grad, x2.grad)
with torch.no_grad():
    with torch.enable_grad():
        q = x2 * 2
    r = x2 * 2
print(q.requires_grad, r.requires_grad)
m = torch.nn.Linear(2, 1)
m.requires_grad_(False)
print([p.requires_grad for p in m.parameters()], m(torch.ones(1, 2)).requires_grad)
m.weight.requires_grad = True
print(m(torch.ones(1, 2)).grad_fn.name())
