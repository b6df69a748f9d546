import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)
        with torch.no_grad():
            self.lin.weight.copy_(torch.eye(4) * 0.5 + 0.1)
            self.lin.bias.fill_(0.01)

    def forward(self, x, scale=1.0, mask=None):
        y = torch.tanh(self.lin(x)) * scale
        if mask is not None:
            y = y * mask
        return y


blocks = nn.ModuleList([Block() for _ in range(3)])
x = torch.tensor([[1.0, -1.0, 0.5, 2.0]], requires_grad=True)
mask = torch.tensor([[1.0, 0.0, 1.0, 1.0]])


def run(use_ckpt, reentrant):
    h = x
    for b in blocks:
        if use_ckpt:
            h = checkpoint(b, h, 2.0, mask=mask, use_reentrant=reentrant) if not reentrant else checkpoint(b, h, 2.0, mask, use_reentrant=True)
        else:
            h = b(h, 2.0, mask=mask)
    return h.pow(2).sum()


res = []
for use, re in [(False, False), (True, False), (True, True)]:
    x.grad = None
    for p in blocks.parameters():
        p.grad = None
    loss = run(use, re)
    loss.backward()
    res.append((loss.item(), x.grad.clone(), blocks[0].lin.weight.grad.clone()))
    print(use, re, round(loss.item(), 6), x.grad.round(decimals=5))
print(all(torch.allclose(res[0][2], r[2]) for r in res[1:]))
out = checkpoint(lambda a, b: (a * b, a + b), x, torch.ones(1, 4), use_reentrant=False)
print(type(out).__name__, out[0].grad_fn is not None)
y = checkpoint(blocks[0], x.detach(), use_reentrant=False)
print(y.requires_grad)
