import torch
import torch.nn as nn

layer = nn.TransformerEncoderLayer(d_model=6, nhead=3, dim_feedforward=10, dropout=0.0,
                                   activation="gelu", batch_first=True, norm_first=True)
encoder = nn.TransformerEncoder(layer, num_layers=2, norm=nn.LayerNorm(6), enable_nested_tensor=False)
with torch.no_grad():
    for i, (name, p) in enumerate(encoder.named_parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=p.dtype) * 0.61 + i).view_as(p) * 0.35)
print(len(encoder.layers), encoder.layers[0] is layer, sum(p.numel() for p in encoder.parameters()))
x = torch.sin(torch.arange(3 * 5 * 6.0) * 0.3).view(3, 5, 6)
lengths = torch.tensor([5, 3, 1])
pad = torch.arange(5)[None, :] >= lengths[:, None]
print(pad)
h = encoder(x, src_key_padding_mask=pad)
print(h.shape, h[1, :3, 0].round(decimals=4))
keep = (~pad).unsqueeze(-1).double()
pooled = (h * keep).sum(1) / keep.sum(1)
print(pooled.round(decimals=4))
short = encoder(x[1:2, :3])
print(torch.allclose(short, h[1:2, :3], atol=1e-10))
causal = nn.Transformer.generate_square_subsequent_mask(5)
hc = encoder(x, mask=causal, is_causal=True)
print(torch.allclose(encoder(x[:, :2], mask=causal[:2, :2]), hc[:, :2], atol=1e-10))
encoder.eval()
with torch.no_grad():
    he = encoder(x, src_key_padding_mask=pad)
print(torch.allclose(he[~pad], h[~pad].detach(), atol=1e-10))
xg = x.clone().requires_grad_()
encoder.train()
pooled_g = (encoder(xg, src_key_padding_mask=pad) * keep).sum()
pooled_g.backward()
print(xg.grad[2, 1:].abs().sum().item(), xg.grad[0, 0].round(decimals=4))
