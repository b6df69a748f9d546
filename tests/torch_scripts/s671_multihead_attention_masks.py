import torch
import torch.nn as nn
import torch.nn.functional as F

mha = nn.MultiheadAttention(embed_dim=4, num_heads=2, batch_first=True)
with torch.no_grad():
    mha.in_proj_weight.copy_(torch.sin(torch.arange(48.0)).reshape(12, 4) * 0.5)
    mha.in_proj_bias.copy_(torch.linspace(-0.1, 0.1, 12))
    mha.out_proj.weight.copy_(torch.cos(torch.arange(16.0)).reshape(4, 4) * 0.5)
    mha.out_proj.bias.zero_()
q = torch.cos(torch.arange(24.0) * 0.3).reshape(2, 3, 4)
kpm = torch.tensor([[False, False, True], [False, False, False]])
out, w = mha(q, q, q, key_padding_mask=kpm)
print(out[0].detach().round(decimals=4))
print(w[0].detach().round(decimals=4))
out, w = mha(q, q, q, need_weights=True, average_attn_weights=False, attn_mask=torch.triu(torch.ones(3, 3, dtype=torch.bool), 1))
print(w.shape, w[1, 1].detach().round(decimals=4))
_, none = mha(q, q, q, need_weights=False)
print(none)
qs = q.reshape(2, 3, 2, 2).transpose(1, 2)
print(F.scaled_dot_product_attention(qs, qs, qs, is_causal=True)[0, 0].round(decimals=4))
bias = torch.tensor([[0.0, -1.0, -2.0]]).expand(3, 3)
print(F.scaled_dot_product_attention(qs, qs, qs, attn_mask=bias, scale=0.5)[1, 1].round(decimals=4))
bm = torch.tensor([[True, True, False]]).expand(3, 3)
print(F.scaled_dot_product_attention(qs, qs, qs, attn_mask=bm)[0, 1].round(decimals=4))
