import math
import torch
import torch.nn.functional as F

B, H, L, D = 1, 2, 4, 3
q = torch.linspace(-1, 1, B * H * L * D).reshape(B, H, L, D).requires_grad_()
k = torch.linspace(1, -1, B * H * L * D).reshape(B, H, L, D).cos()
v = torch.arange(B * H * L * D, dtype=torch.float64).reshape(B, H, L, D) / 10
scores = q @ k.transpose(-2, -1) / math.sqrt(D)
causal = torch.triu(torch.ones(L, L, dtype=torch.bool), diagonal=1)
print(causal)
masked = scores.masked_fill(causal, float("-inf"))
attn = masked.softmax(dim=-1)
out = attn @ v
print(attn[0, 0], out[0, 1])
ref = F.scaled_dot_product_attention(q, k, v, is_causal=True)
print(torch.allclose(out, ref), (out - ref).abs().max() < 1e-12)
bool_mask = ~causal
ref2 = F.scaled_dot_product_attention(q, k, v, attn_mask=bool_mask)
print(torch.allclose(out, ref2))
float_mask = torch.zeros(L, L).masked_fill(causal, float("-inf"))
ref3 = F.scaled_dot_product_attention(q, k, v, attn_mask=float_mask, scale=0.5)
print(ref3[0, 0, -1])
pad = torch.tensor([True, True, True, False])
m2 = scores.masked_fill(~pad.view(1, 1, 1, L), -1e9).softmax(-1)
print(m2[0, 1, 0])
out.sum().backward()
print(q.grad[0, 0])
lengths = torch.tensor([2, 4, 3])
mask = torch.arange(4).unsqueeze(0) < lengths.unsqueeze(1)
print(mask, mask.sum(1), mask.float().mean(), torch.where(mask, 1.0, 0.0).cumsum(1))
x = torch.tensor([[1.0, 2.0, 3.0, 4.0]] * 3)
mean = (x * mask).sum(1) / mask.sum(1)
print(mean, x.masked_fill(~mask, float("nan")).nanmean(1))
print(F.softmax(torch.tensor([[1.0, float("-inf")], [float("-inf"), float("-inf")]]), dim=-1))
