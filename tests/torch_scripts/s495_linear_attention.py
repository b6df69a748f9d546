import torch
import torch.nn as nn
import torch.nn.functional as F


def elu_feature(x):
    return F.elu(x) + 1


class LinearAttention(nn.Module):
    def __init__(self, d, heads=2):
        super().__init__()
        self.h = heads
        self.qkv = nn.Linear(d, 3 * d, bias=False)
        self.out = nn.Linear(d, d)

    def forward(self, x, causal=False):
        B, T, D = x.shape
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        q, k, v = (t.reshape(B, T, self.h, D // self.h).transpose(1, 2) for t in (q, k, v))
        q, k = elu_feature(q), elu_feature(k)
        if causal:
            kv = torch.einsum("bhtd,bhte->bhtde", k, v).cumsum(dim=2)
            num = torch.einsum("bhtd,bhtde->bhte", q, kv)
            den = torch.einsum("bhtd,bhtd->bht", q, k.cumsum(dim=2))
        else:
            kv = torch.einsum("bhtd,bhte->bhde", k, v)
            num = torch.einsum("bhtd,bhde->bhte", q, kv)
            den = torch.einsum("bhtd,bhd->bht", q, k.sum(dim=2))
        y = num / den.unsqueeze(-1)
        return self.out(y.transpose(1, 2).reshape(B, T, D))


att = LinearAttention(4)
with torch.no_grad():
    for i, p in enumerate(att.parameters()):
        p.copy_(0.3 * torch.cos(torch.arange(p.numel(), dtype=p.dtype) + 2 * i).view_as(p))
x = torch.sin(torch.arange(2 * 5 * 4, dtype=torch.float64).view(2, 5, 4) * 0.37)
y = att(x)
yc = att(x, causal=True)
print(y.shape, yc.shape)
print(y[0, :2])
print(yc[1, -1])
# causal output at time t must not depend on later inputs
xp = x.clone()
xp[:, 3:] += 1.0
print(torch.allclose(att(xp, causal=True)[:, :3], yc[:, :3]))
loss = yc.pow(2).mean() + y.abs().mean()
loss.backward()
print(round(loss.item(), 6), att.qkv.weight.grad.shape, round(att.out.bias.grad.sum().item(), 6))
# compare with quadratic-form attention using the same feature map
q, k, v = att.qkv(x).chunk(3, -1)
qf, kf = elu_feature(q), elu_feature(k)
A = qf @ kf.transpose(-2, -1)
print(torch.tril(A[0]).count_nonzero().item(), A.shape)
