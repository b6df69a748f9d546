import torch
import torch.nn as nn

torch.manual_seed(0)
layer = nn.TransformerEncoderLayer(d_model=8, nhead=2, dim_feedforward=16, dropout=0.0, batch_first=True, norm_first=True)
enc = nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False)
with torch.no_grad():
    for i, p in enumerate(enc.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=p.dtype) * 0.13 + i).view_as(p) * 0.25)
x = torch.cos(torch.arange(2 * 4 * 8, dtype=torch.float64) * 0.2).view(2, 4, 8)
mask = nn.Transformer.generate_square_subsequent_mask(4)
print(mask)
pad = torch.tensor([[False, False, False, True], [False, False, False, False]])
y = enc(x, mask=mask, src_key_padding_mask=pad)
print(y.shape, y[0, 0].round(decimals=4))
y.pow(2).mean().backward()
print(layer.self_attn.in_proj_weight.grad is None, enc.layers[0].self_attn.in_proj_weight.grad.norm().round(decimals=4))
mha = nn.MultiheadAttention(8, 2, batch_first=True, kdim=6, vdim=5)
with torch.no_grad():
    for i, p in enumerate(mha.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=p.dtype) * 0.11 + i).view_as(p) * 0.3)
q = x[:, :3]
k = torch.sin(torch.arange(2 * 4 * 6, dtype=torch.float64)).view(2, 4, 6)
v = torch.cos(torch.arange(2 * 4 * 5, dtype=torch.float64)).view(2, 4, 5)
o, w = mha(q, k, v, need_weights=True, average_attn_weights=False)
print(o.shape, w.shape, w.sum(-1).round(decimals=6))
print(nn.functional.scaled_dot_product_attention(x, x, x, is_causal=True)[1, 0].round(decimals=4))
