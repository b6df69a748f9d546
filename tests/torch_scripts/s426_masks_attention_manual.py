import math
import torch
import torch.nn.functional as F

B, T, H, Dh = 2, 4, 2, 3
x = torch.sin(torch.arange(B * T * H * Dh, dtype=torch.float64)).view(B, T, H * Dh).requires_grad_()
q = x.view(B, T, H, Dh).transpose(1, 2)
k = q.flip(-1)
v = q.cos()
scores = q @ k.transpose(-2, -1) / math.sqrt(Dh)
causal = torch.ones(T, T, dtype=torch.bool).tril()
scores = scores.masked_fill(~causal, float("-inf"))
lengths = torch.tensor([4, 2])
pad = torch.arange(T)[None, :] >= lengths[:, None]
scores = scores.masked_fill(pad[:, None, None, :], float("-inf"))
attn = scores.softmax(-1)
out = (attn @ v).transpose(1, 2).reshape(B, T, H * Dh)
print(attn[1, 0].round(decimals=4), out.shape)
out.pow(2).sum().backward()
print(x.grad.abs().sum().round(decimals=5))
ref = F.scaled_dot_product_attention(q, k, v, attn_mask=causal & ~pad[:, None, None, :])
print(torch.allclose(ref, attn @ v))
rel = torch.arange(T)[:, None] - torch.arange(T)[None, :]
print(rel.clamp(-2, 2) + 2, torch.triu(torch.full((3, 3), float("-inf")), diagonal=1))
print(torch.where(pad, torch.tensor(-1), torch.arange(T)), pad.sum(1), (~pad).cumsum(1) - 1)
