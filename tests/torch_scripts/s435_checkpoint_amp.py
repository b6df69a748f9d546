import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint, checkpoint_sequential

blk = nn.Sequential(nn.Linear(3, 3), nn.Tanh(), nn.Linear(3, 3), nn.Tanh())
with torch.no_grad():
    for i, p in enumerate(blk.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=p.dtype) + i).view_as(p) * 0.5)
x = torch.tensor([[1.0, -1.0, 0.5]], requires_grad=True)
y1 = checkpoint(blk, x, use_reentrant=False)
y1.sum().backward()
g1 = x.grad.clone()
x.grad = None
y2 = checkpoint_sequential(blk, 2, x, use_reentrant=False)
y2.sum().backward()
print(torch.allclose(y1, y2), torch.allclose(g1, x.grad), g1)
with torch.autocast("cpu", dtype=torch.bfloat16, enabled=False):
    print(blk(x).dtype)
scaler = torch.amp.GradScaler("cpu", enabled=False) if hasattr(torch, "amp") else None
opt = torch.optim.SGD(blk.parameters(), lr=0.1)
loss = blk(x).pow(2).sum()
scaler.scale(loss).backward()
scaler.step(opt)
scaler.update()
print(round(loss.item(), 6), scaler.is_enabled(), scaler.get_scale() if scaler.is_enabled() else 1.0)
