import torch

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = a * 2
c = b.detach()
print(a.is_leaf, b.is_leaf, c.is_leaf, c.requires_grad, b.grad_fn is not None, a.grad_fn)
b.retain_grad()
(b ** 2).sum().backward()
print(a.grad, b.grad, b.retains_grad)
(a * 3).sum().backward()
print(a.grad)
a.grad.zero_()
print(a.grad)
with torch.no_grad():
    d = a * 2
    with torch.enable_grad():
        e = a * 2
print(d.requires_grad, e.requires_grad, torch.is_grad_enabled())
torch.set_grad_enabled(False)
f = a * 2
torch.set_grad_enabled(True)
print(f.requires_grad, torch.is_grad_enabled())
with torch.inference_mode():
    g = a * 2
print(g.requires_grad, g.is_inference(), a.is_inference(), torch.is_inference_mode_enabled())
@torch.no_grad()
def update(p):
    p -= 0.1 * p.grad
    return p.requires_grad
print(update(a), a)
h = torch.zeros(3)
print(h.requires_grad_(), h.requires_grad, h.is_leaf)
k = h.clone()
print(k.is_leaf, k.grad_fn.name(), k.requires_grad)
k.detach_()
print(k.is_leaf, k.requires_grad, k.grad_fn)
m = torch.tensor([1.0, 2.0])
n = torch.tensor([3.0], requires_grad=True)
o = m + n
print(o.requires_grad, (m * 2).requires_grad, torch.cat([m, n]).requires_grad)
p = torch.nn.Parameter(torch.ones(2))
print(p.is_leaf, p.requires_grad, (p * 1).is_leaf, type(p.data).__name__, type(p.detach()).__name__)
q = torch.ones(2, requires_grad=True)
r = q.view(2)
print(r.is_leaf, r._base is q, r.grad_fn.name())
s = torch.ones(2, requires_grad=True) + 0
s2 = s[0]
s2.backward()
print(s.grad, s.is_leaf)
x = torch.tensor(2.0, requires_grad=True)
y = x ** 2
y.backward(retain_graph=True)
y.backward(torch.tensor(0.5))
print(x.grad)
x.grad = None
y = x ** 2
(gx,) = torch.autograd.grad(y, x, grad_outputs=torch.tensor(3.0))
print(gx, x.grad)
print(torch.autograd.grad([x * 2, x * 3], [x]), torch.autograd.grad(x * x, x, create_graph=True)[0].requires_grad)
