import math
import torch
import torch.nn.functional as F

B, H, L, S, E = 2, 2, 4, 5, 3
q = torch.sin(torch.arange(B * H * L * E, dtype=torch.float64)).reshape(B, H, L, E)
k = torch.cos(torch.arange(B * H * S * E, dtype=torch.float64) * 0.5).reshape(B, H, S, E)
v = torch.linspace(-1, 1, B * H * S * E).reshape(B, H, S, E)


def manual(q, k, v, mask=None, scale=None):
    scale = 1 / math.sqrt(q.size(-1)) if scale is None else scale
    scores = q @ k.transpose(-2, -1) * scale
    if mask is not None:
        if mask.dtype == torch.bool:
            scores = scores.masked_fill(~mask, float("-inf"))
        else:
            scores = scores + mask
    return torch.softmax(scores, dim=-1) @ v


out = F.scaled_dot_product_attention(q, k, v)
print(out.shape, torch.allclose(out, manual(q, k, v)))
bmask = torch.ones(L, S, dtype=torch.bool).tril(diagonal=1)
print(torch.allclose(F.scaled_dot_product_attention(q, k, v, attn_mask=bmask), manual(q, k, v, bmask)))
fmask = torch.zeros(L, S).masked_fill(~bmask, -1e9)
print(torch.allclose(F.scaled_dot_product_attention(q, k, v, attn_mask=fmask), manual(q, k, v, fmask)))
print(torch.allclose(F.scaled_dot_product_attention(q, k, v, scale=0.25), manual(q, k, v, scale=0.25)))
qs = q[..., :4, :]
kc = k[..., :4, :]
vc = v[..., :4, :]
c1 = F.scaled_dot_product_attention(qs, kc, vc, is_causal=True)
c2 = manual(qs, kc, vc, torch.ones(4, 4, dtype=torch.bool).tril())
print(torch.allclose(c1, c2), c1[0, 0].round(decimals=4))
kpm = torch.tensor([[True, True, True, False, False], [True, True, True, True, True]])
o = F.scaled_dot_product_attention(q, k, v, attn_mask=kpm[:, None, None, :])
print(o[0, 1, 0].round(decimals=4))
qg = q.clone().requires_grad_(True)
F.scaled_dot_product_attention(qg, k, v, attn_mask=bmask).sum().backward()
print(qg.grad.shape, qg.grad[0, 0, 0].round(decimals=4))
