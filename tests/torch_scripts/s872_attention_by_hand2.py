# Scaled dot-product attention by hand vs F.scaled_dot_product_attention, with a causal mask,
# a boolean key-padding mask, and multi-head reshaping with view/transpose
import math
import torch
import torch.nn.functional as F

B, T, H, D = 2, 4, 2, 3
q = torch.linspace(-1, 1, B * T * H * D).view(B, T, H * D)
k = torch.cos(torch.arange(B * T * H * D, dtype=torch.float64)).view(B, T, H * D)
v = torch.sin(torch.arange(B * T * H * D, dtype=torch.float64)).view(B, T, H * D)
def heads(t):
    return t.view(B, T, H, D).transpose(1, 2)
qh, kh, vh = heads(q), heads(k), heads(v)
scores = qh @ kh.transpose(-2, -1) / math.sqrt(D)
causal = torch.ones(T, T, dtype=torch.bool).tril()
att = scores.masked_fill(~causal, float("-inf")).softmax(-1)
out = (att @ vh).transpose(1, 2).reshape(B, T, H * D)
ref = F.scaled_dot_product_attention(qh, kh, vh, is_causal=True).transpose(1, 2).reshape(B, T, H * D)
print(torch.allclose(out, ref), out[0, -1])
keep = torch.tensor([[True, True, True, False], [True, True, False, False]])
mask = keep[:, None, None, :]
ref2 = F.scaled_dot_product_attention(qh, kh, vh, attn_mask=mask)
att2 = scores.masked_fill(~mask, float("-inf")).softmax(-1)
print(torch.allclose(att2 @ vh, ref2), att2[1, 0, 0])
print(F.scaled_dot_product_attention(qh, kh, vh, scale=0.1).shape)
