import torch
import torch.nn as nn

layer = nn.TransformerEncoderLayer(d_model=8, nhead=2, dim_feedforward=16, dropout=0.1, batch_first=True)
with torch.no_grad():
    for i, (n, p) in enumerate(layer.named_parameters()):
        p.copy_(torch.cos(torch.arange(p.numel()) * 0.31 + i).reshape(p.shape) * 0.3)
print(sorted(n for n, _ in layer.named_parameters()))
x = torch.sin(torch.arange(2 * 5 * 8) * 0.17).reshape(2, 5, 8)
layer.eval()
with torch.no_grad():
    y = layer(x)
print(y.shape, y[0, 0].round(decimals=4))
mask = nn.Transformer.generate_square_subsequent_mask(5)
print(mask)
with torch.no_grad():
    yc = layer(x, src_mask=mask)
print(yc[1, -1].round(decimals=4))
pad = torch.tensor([[False, False, False, True, True], [False] * 5])
with torch.no_grad():
    yp = layer(x, src_key_padding_mask=pad)
print(yp[0, :3].round(decimals=4))
enc = nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False)
enc.eval()
with torch.no_grad():
    z = enc(x, mask=mask, is_causal=True)
print(z.shape, z[0, 2].round(decimals=4))
layer.train()
layer.dropout.p = 0.0; layer.dropout1.p = 0.0; layer.dropout2.p = 0.0
layer.self_attn.dropout = 0.0
out = layer(x)
out.pow(2).mean().backward()
print(layer.linear1.weight.grad.abs().sum().round(decimals=4))
print(layer.self_attn.in_proj_weight.grad.shape, layer.norm_first)
