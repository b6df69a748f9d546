import torch
import torch.nn as nn

torch.manual_seed(0)
layer = nn.TransformerEncoderLayer(d_model=4, nhead=2, dim_feedforward=8, dropout=0.0, batch_first=True, norm_first=True)
with torch.no_grad():
    for i, p in enumerate(layer.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=p.dtype) * 0.37 + i).reshape(p.shape) * 0.3)
enc = nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False)
x = torch.cos(torch.arange(2 * 3 * 4, dtype=torch.float64)).reshape(2, 3, 4)
mask = nn.Transformer.generate_square_subsequent_mask(3)
print(mask)
pad = torch.tensor([[False, False, True], [False, False, False]])
enc.eval()
out = enc(x, mask=mask, src_key_padding_mask=pad)
print(out.shape, out[1, 0].detach().round(decimals=4))
enc.train()
xg = x.clone().requires_grad_()
enc(xg, mask=mask, is_causal=True).sum().backward()
print(xg.grad[0, 0].round(decimals=4))
dec_layer = nn.TransformerDecoderLayer(d_model=4, nhead=1, dim_feedforward=6, dropout=0.0, batch_first=True)
with torch.no_grad():
    for i, p in enumerate(dec_layer.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=p.dtype) * 0.21 + i).reshape(p.shape) * 0.3)
y = dec_layer(x[:, :2], out.detach())
print(y.shape, y[0, 1].detach().round(decimals=4))
print(sum(p.numel() for p in enc.parameters()))
