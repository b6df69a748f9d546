import torch

log = []


def pack(t):
    log.append(("pack", tuple(t.shape)))
    return t.clone()


def unpack(t):
    log.append(("unpack", tuple(t.shape)))
    return t


x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
    y = (x * x).sin()
print(sorted(set(log)))
log.clear()
y.sum().backward()
print(len(log) > 0, x.grad)
with torch.autograd.graph.save_on_cpu():
    z = (x.exp() * x).sum()
z.backward()
print(x.grad)
x.grad = None
seen = []
h = x.register_hook(lambda g: g * 2)
h2 = x.register_post_accumulate_grad_hook(lambda p: seen.append(p.grad.clone()))
(x ** 2).sum().backward()
print(x.grad, seen)
h.remove(); h2.remove()
a = torch.tensor([1.0, -1.0], requires_grad=True)
b = a * 3
b.retain_grad()
c = b.tanh()
hb = b.register_hook(lambda g: print("b hook", g.round(decimals=4)))
c.sum().backward()
print(b.grad.round(decimals=4), b.is_leaf, b.retains_grad, c.retains_grad)
hb.remove()
u = torch.tensor(2.0, requires_grad=True)
v = u * u
gv, = torch.autograd.grad(v, u, create_graph=True)
gg, = torch.autograd.grad(gv, u)
print(gv, gg)
p, q = torch.tensor(1.0, requires_grad=True), torch.tensor(1.0, requires_grad=True)
r = p * 2
print(torch.autograd.grad(r, [p, q], allow_unused=True, retain_graph=True))
print(torch.autograd.grad(r, [p, q], allow_unused=True, materialize_grads=True, retain_graph=True))
try:
    torch.autograd.grad(r, [p, q])
except RuntimeError as e:
    print("RuntimeError:", e)
w = torch.tensor([1.0, 2.0], requires_grad=True)
out = w * torch.tensor([3.0, 4.0])
gs = torch.autograd.grad(out, w, grad_outputs=torch.eye(2), is_grads_batched=True)
print(gs)
k = torch.ones(2, requires_grad=True)
kk = k * 2
kk.backward(torch.tensor([1.0, 0.5]), inputs=[k])
print(k.grad)
