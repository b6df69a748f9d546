# A self-attention block as modern code writes it: fused qkv projection, F.scaled_dot_
# product_attention under torch.nn.attention.sdpa_kernel(SDPBackend.MATH) for determinism,
# grouped-query attention via repeat_interleave, key padding as a boolean attn_mask
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

rng = np.random.default_rng(821)
B, T, D, H, KVH = 2, 5, 8, 4, 2
HD = D // H


class GQAttention(nn.Module):
    def __init__(self):
        super().__init__()
        self.qkv = nn.Linear(D, D + 2 * KVH * HD, bias=False)
        self.proj = nn.Linear(D, D)

    def forward(self, x, pad_mask):
        q, k, v = self.qkv(x).split([D, KVH * HD, KVH * HD], dim=-1)
        q = q.view(B, T, H, HD).transpose(1, 2)
        k = k.view(B, T, KVH, HD).transpose(1, 2).repeat_interleave(H // KVH, dim=1)
        v = v.view(B, T, KVH, HD).transpose(1, 2).repeat_interleave(H // KVH, dim=1)
        causal = torch.ones(T, T, dtype=torch.bool).tril()
        mask = causal & pad_mask[:, None, None, :]
        with sdpa_kernel(SDPBackend.MATH):
            y = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
        return self.proj(y.transpose(1, 2).reshape(B, T, D))


att = GQAttention()
with torch.no_grad():
    for p in att.parameters():
        p.copy_(torch.from_numpy(rng.normal(0, 0.3, tuple(p.shape))))
x = torch.from_numpy(rng.standard_normal((B, T, D)))
pad = torch.tensor([[True] * 5, [True] * 3 + [False] * 2])
target = torch.from_numpy(rng.standard_normal((B, T, D)))
opt = torch.optim.Adam(att.parameters(), lr=0.01)
for it in range(5):
    opt.zero_grad()
    out = att(x, pad)
    loss = ((out - target) ** 2)[pad].mean()
    loss.backward()
    opt.step()
    print(it, f"{loss.item():.6f}")
print(SDPBackend.MATH, int(SDPBackend.FLASH_ATTENTION), SDPBackend.EFFICIENT_ATTENTION.name)
q = torch.from_numpy(rng.standard_normal((1, 4, 3, 2)))
kv = torch.from_numpy(rng.standard_normal((1, 2, 3, 2)))
with sdpa_kernel([SDPBackend.MATH]):
    a = F.scaled_dot_product_attention(q, kv, kv, enable_gqa=True, is_causal=True)
b = F.scaled_dot_product_attention(q, kv.repeat_interleave(2, 1), kv.repeat_interleave(2, 1), is_causal=True)
print(torch.allclose(a, b), a[0, 3].numpy().round(5))
print(att.qkv.weight.grad[:2, :4].numpy().round(6))
