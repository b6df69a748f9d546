import math

import torch
import torch.nn.functional as F

B, H, L, S, E = 1, 2, 3, 4, 4
q = torch.sin(torch.arange(B * H * L * E, dtype=torch.float64)).reshape(B, H, L, E).requires_grad_()
k = torch.cos(torch.arange(B * H * S * E, dtype=torch.float64)).reshape(B, H, S, E)
v = torch.arange(B * H * S * E, dtype=torch.float64).reshape(B, H, S, E) / 10
out = F.scaled_dot_product_attention(q, k, v)
manual = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(E), dim=-1) @ v
print(torch.allclose(out, manual), out.shape)
bool_mask = torch.tensor([[True, True, False, False], [True, True, True, False], [True] * 4])
o2 = F.scaled_dot_product_attention(q, k, v, attn_mask=bool_mask)
print(o2[0, 0].round(decimals=5))
float_mask = torch.zeros(L, S).masked_fill(~bool_mask, float("-inf"))
o3 = F.scaled_dot_product_attention(q, k, v, attn_mask=float_mask, scale=0.3)
print(o3[0, 1].round(decimals=5))
o4 = F.scaled_dot_product_attention(q, k[..., :3, :], v[..., :3, :], is_causal=True)
print(o4[0, 0].round(decimals=5))
(o2.sum() + o3.sum() + o4.sum()).backward()
print(q.grad[0, 1].round(decimals=5))
kv1 = k[:, :1]
o5 = F.scaled_dot_product_attention(q, kv1, v[:, :1], enable_gqa=True)
print(o5.shape, o5[0, 1, 0].round(decimals=5))
