# A LLaMA-style block: RMSNorm, rotary position embeddings computed with torch.polar and
# view_as_complex/view_as_real, SwiGLU feed-forward, causal SDPA; a KV cache for
# incremental decoding must give the same logits as the full forward
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

D, H, T = 16, 2, 6
HD = D // H


def precompute_freqs_cis(dim, end, theta=10000.0):
    freqs = 1.0 / (theta ** (torch.arange(0, dim, 2)[: dim // 2] / dim))
    t = torch.arange(end)
    freqs = torch.outer(t, freqs)
    return torch.polar(torch.ones_like(freqs), freqs)


def apply_rotary_emb(x, freqs_cis):
    xc = torch.view_as_complex(x.reshape(*x.shape[:-1], -1, 2))
    fc = freqs_cis.view(1, x.shape[1], 1, xc.shape[-1])
    return torch.view_as_real(xc * fc).flatten(3)


class RMSNorm(nn.Module):
    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.wq, self.wk, self.wv, self.wo = (nn.Linear(D, D, bias=False) for _ in range(4))
        self.w1, self.w3 = nn.Linear(D, 24, bias=False), nn.Linear(D, 24, bias=False)
        self.w2 = nn.Linear(24, D, bias=False)
        self.n1, self.n2 = RMSNorm(D), RMSNorm(D)

    def forward(self, x, freqs, cache=None, start=0):
        b, t, _ = x.shape
        h = self.n1(x)
        q = self.wq(h).view(b, t, H, HD)
        k = self.wk(h).view(b, t, H, HD)
        v = self.wv(h).view(b, t, H, HD)
        q, k = apply_rotary_emb(q, freqs[start:start + t]), apply_rotary_emb(k, freqs[start:start + t])
        if cache is not None:
            if "k" in cache:
                k = torch.cat([cache["k"], k], 1)
                v = torch.cat([cache["v"], v], 1)
            cache["k"], cache["v"] = k, v
        att = F.scaled_dot_product_attention(q.transpose(1, 2), k.transpose(1, 2),
                                             v.transpose(1, 2), is_causal=cache is None)
        x = x + self.wo(att.transpose(1, 2).reshape(b, t, D))
        return x + self.w2(F.silu(self.w1(self.n2(x))) * self.w3(self.n2(x)))


blk = Block()
g = np.random.default_rng(211)
with torch.no_grad():
    for p in blk.parameters():
        p.copy_(torch.from_numpy(g.normal(0, 0.3, tuple(p.shape))))
freqs = precompute_freqs_cis(HD, 16)
print(freqs.dtype, freqs.shape, freqs[1, :2])
x = torch.from_numpy(g.standard_normal((2, T, D)))
full = blk(x, freqs)
cache = {}
steps = [blk(x[:, i:i + 1], freqs, cache, start=i) for i in range(T)]
inc = torch.cat(steps, 1)
print("kv-cache matches", torch.allclose(full, inc, atol=1e-10), cache["k"].shape)
print(full[0, -1, :5].detach().numpy().round(5))
opt = torch.optim.AdamW(blk.parameters(), lr=1e-2)
for s in range(4):
    opt.zero_grad()
    loss = blk(x, freqs).pow(2).mean()
    loss.backward()
    opt.step()
    print(s, f"{loss.item():.6f}", f"{blk.n1.weight.grad.norm().item():.6f}")
xq = torch.from_numpy(g.standard_normal((1, 3, 1, 4))).requires_grad_()
r = apply_rotary_emb(xq, precompute_freqs_cis(4, 3))
r.pow(3).sum().backward()
print(r.detach().flatten().numpy().round(5), xq.grad.flatten().numpy().round(5))
