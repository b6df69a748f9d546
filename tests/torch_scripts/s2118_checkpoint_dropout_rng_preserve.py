import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint

torch.manual_seed(123)
block = nn.Sequential(nn.Linear(4, 4), nn.Dropout(0.5), nn.Tanh())
with torch.no_grad():
    block[0].weight.copy_(torch.eye(4) * 0.5)
    block[0].bias.zero_()
x = torch.arange(8.0).view(2, 4).div(8).requires_grad_()

torch.manual_seed(7)
out_ckpt = checkpoint(block, x, use_reentrant=False, preserve_rng_state=True)
out_ckpt.pow(2).sum().backward()
g_ckpt = x.grad.clone()
w_ckpt = block[0].weight.grad.clone()

x.grad = None
block.zero_grad()
torch.manual_seed(7)
out_plain = block(x)
out_plain.pow(2).sum().backward()
print(torch.equal(out_ckpt, out_plain))
print(torch.allclose(g_ckpt, x.grad), torch.allclose(w_ckpt, block[0].weight.grad))
block.eval()
y = checkpoint(block, x, use_reentrant=False)
print(y.grad_fn is not None, tuple(y.shape))
def two(a, b):
    return a * b, a + b
x.grad = None
p, q = checkpoint(two, x, x.detach() * 2, use_reentrant=False)
(p.sum() + q.sum()).backward()
print(x.grad.round(decimals=4))
