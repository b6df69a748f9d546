# nn.TransformerEncoderLayer with constant weights: output shape, finite, key padding mask, norm_first, eval determinism
import torch
import torch.nn as nn

layer = nn.TransformerEncoderLayer(d_model=4, nhead=2, dim_feedforward=8, dropout=0.0, batch_first=True, norm_first=True)
for name, p in layer.named_parameters():
    nn.init.constant_(p, 0.05 if "weight" in name else 0.0)
enc = nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False)
x = torch.arange(24.0).view(2, 3, 4) / 10
mask = torch.tensor([[False, False, True], [False, False, False]])
enc.eval()
y = enc(x, src_key_padding_mask=mask)
print(y.shape, torch.isfinite(y).all().item())
print(y[1].round(decimals=4))
causal = nn.Transformer.generate_square_subsequent_mask(3)
print(causal)
y2 = enc(x, mask=causal)
print(y2[0, 0].round(decimals=4))
mha = nn.MultiheadAttention(4, 2, batch_first=True)
for name, p in mha.named_parameters():
    nn.init.constant_(p, 0.1 if "weight" in name else 0.0)
o, w = mha(x, x, x, need_weights=True, average_attn_weights=False)
print(o.shape, w.shape, w[0, 0].round(decimals=4))
o, w = mha(x, x, x, key_padding_mask=mask)
print(w[0].round(decimals=4))
print(sorted(n for n, _ in layer.named_parameters())[:4])
