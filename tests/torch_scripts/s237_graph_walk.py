import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
w = torch.tensor([[0.5, -1.0], [2.0, 0.3]], requires_grad=True)
h = torch.tanh(w @ x)
y = (h * h).sum() + x.prod()

def walk(fn, depth=0, seen=None):
    seen = set() if seen is None else seen
    if fn is None or fn in seen:
        return
    seen.add(fn)
    print("  " * depth + fn.name())
    for nxt, _ in fn.next_functions:
        walk(nxt, depth + 1, seen)

walk(y.grad_fn)
print(y.grad_fn.next_functions[0][0].name(), type(x.grad_fn), x.is_leaf, h.is_leaf, h.requires_grad)
h.retain_grad()
packed = []
def pack(t):
    packed.append(tuple(t.shape))
    return t
def unpack(t):
    return t
with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
    z = (x.exp() * x).sum()
print(len(packed) > 0, all(s == (2,) for s in packed))
hook_log = []
handle = x.register_hook(lambda g: hook_log.append(g.clone()) or g * 2)
y.backward(retain_graph=True)
print(x.grad, h.grad, hook_log[0])
handle.remove()
x.grad = None
torch.autograd.backward([y, z], grad_tensors=[torch.tensor(1.0), torch.tensor(0.5)], inputs=[x], retain_graph=True)
print(x.grad, w.grad)
g = torch.autograd.grad(y, [x, w], grad_outputs=torch.tensor(2.0), retain_graph=True)
print(g[0], g[1].round(decimals=6))
vs = torch.eye(2)
gb = torch.autograd.grad(h, x, grad_outputs=vs, is_grads_batched=True, retain_graph=True)
print(gb[0].round(decimals=6))
jac = torch.autograd.functional.jacobian(lambda v: torch.tanh(w.detach() @ v), x.detach())
print(torch.allclose(gb[0], jac))
d = h.detach()
print(d.requires_grad, d.grad_fn, h.grad_fn.name())
k = h.detach_() if False else h.clone()
print(k.grad_fn.name(), k.grad_fn.next_functions[0][0] is h.grad_fn)
with torch.no_grad():
    q = x * 2
print(q.requires_grad, q.grad_fn, (x * 2).grad_fn.name())
