import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint, checkpoint_sequential

blocks = nn.Sequential(*[nn.Sequential(nn.Linear(4, 4), nn.Tanh()) for _ in range(4)])
with torch.no_grad():
    for i, p in enumerate(blocks.parameters()):
        p.copy_(0.4 * torch.cos(torch.arange(p.numel(), dtype=p.dtype) * 0.7 + i).view_as(p))
x = torch.linspace(-1, 1, 12).view(3, 4).requires_grad_(True)
ref = blocks(x)
ref.pow(2).sum().backward()
g_ref = [p.grad.clone() for p in blocks.parameters()]
gx_ref = x.grad.clone()
blocks.zero_grad()
x.grad = None
out = checkpoint_sequential(blocks, 2, x, use_reentrant=False)
out.pow(2).sum().backward()
print(torch.allclose(out, ref), all(torch.allclose(a.grad, b) for a, b in zip(blocks.parameters(), g_ref)), torch.allclose(x.grad, gx_ref))
blocks.zero_grad()
x.grad = None


def seg(inp, scale):
    return blocks[1](blocks[0](inp)) * scale


o2 = checkpoint(seg, x, 2.0, use_reentrant=False)
o2.sum().backward()
print(o2.shape, round(x.grad.sum().item(), 6), round(blocks[0][0].weight.grad.abs().sum().item(), 6))
with torch.no_grad():
    o3 = checkpoint(seg, x, 1.0, use_reentrant=False)
print(o3.requires_grad)
