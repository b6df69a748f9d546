import torch
from torch.utils.checkpoint import checkpoint, checkpoint_sequential

packed = []
def pack(t):
    packed.append(tuple(t.shape))
    return t.clone()
def unpack(t):
    return t

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
    y = (x.sin() * x).sum()
y.backward()
print(len(packed) > 0, x.grad.round(decimals=5))

class Count:
    n = 0
def f(a):
    Count.n += 1
    return torch.tanh(a) * a.exp()

z = torch.tensor([0.1, 0.2], requires_grad=True)
out = checkpoint(f, z, use_reentrant=False)
print(Count.n)
out.sum().backward()
print(Count.n, z.grad.round(decimals=5))
seq = torch.nn.Sequential(torch.nn.Linear(2, 3), torch.nn.Tanh(), torch.nn.Linear(3, 3), torch.nn.Tanh(), torch.nn.Linear(3, 1))
with torch.no_grad():
    for i, p in enumerate(seq.parameters()):
        p.copy_(torch.linspace(-1, 1, p.numel()).reshape(p.shape) * 0.5 + 0.1 * i)
inp = torch.tensor([[0.5, -0.5], [1.0, 1.0]], requires_grad=True)
o1 = checkpoint_sequential(seq, 2, inp, use_reentrant=False)
o1.sum().backward()
g1 = inp.grad.clone()
inp.grad = None
seq(inp).sum().backward()
print(torch.allclose(g1, inp.grad), o1.round(decimals=5))
with torch.autograd.graph.save_on_cpu():
    w = (x * x).sum()
w.backward()
print(x.grad)
def pack_hook(t):
    return t * 0 + 1
with torch.autograd.graph.saved_tensors_hooks(pack_hook, lambda t: t):
    q = torch.tensor([2.0, 3.0], requires_grad=True)
    r = (q * q).sum()
r.backward()
print(q.grad)
