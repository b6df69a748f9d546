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
    y = (x * x).exp().sum()
y.backward()
print(len(packed) > 0, x.grad.round(decimals=3))
x.grad = None
with torch.autograd.graph.save_on_cpu():
    (x.sin() * x).sum().backward()
print(x.grad.round(decimals=5))
block = torch.nn.Sequential(torch.nn.Linear(3, 3), torch.nn.Tanh(), torch.nn.Linear(3, 1))
with torch.no_grad():
    for i, p in enumerate(block.parameters()):
        p.copy_(torch.linspace(-1, 1, p.numel()).reshape(p.shape) * (i + 1) / 3)
inp = torch.tensor([[1.0, -1.0, 0.5]], requires_grad=True)
out = checkpoint(block, inp, use_reentrant=False)
out.sum().backward()
g1 = inp.grad.clone()
inp.grad = None
block(inp).sum().backward()
print(torch.allclose(g1, inp.grad), g1.round(decimals=5))
inp.grad = None
out = checkpoint_sequential(block, 2, inp, use_reentrant=False)
out.sum().backward()
print(inp.grad.round(decimals=5), block[0].weight.grad.shape)
