# TransformerEncoderLayer in eval mode: shapes, key padding mask, determinism
import torch
import torch.nn as nn

torch.manual_seed(0)
layer = nn.TransformerEncoderLayer(d_model=4, nhead=2, dim_feedforward=8, dropout=0.0, batch_first=True)
with torch.no_grad():
    for i, p in enumerate(layer.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float64) * (i + 1)).reshape(p.shape) * 0.3)
layer.eval()
x = torch.tensor([[[1.0, 0.0, -1.0, 0.5], [0.0, 1.0, 0.0, -0.5], [2.0, 0.0, 1.0, 1.0]]])
y = layer(x)
print(torch.round(y, decimals=5))
pad = torch.tensor([[False, False, True]])
y2 = layer(x, src_key_padding_mask=pad)
print(torch.round(y2[:, :2], decimals=5))
enc = nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False)
print(enc(x).shape)
