# TransformerEncoderLayer: shapes, norm_first, deterministic in eval mode
import torch
import torch.nn as nn

torch.manual_seed(0)
layer = nn.TransformerEncoderLayer(d_model=8, nhead=2, dim_feedforward=16, batch_first=True, norm_first=True)
layer.eval()
x = torch.randn(2, 5, 8)
y1 = layer(x)
y2 = layer(x)
print(y1.shape, torch.equal(y1, y2))
enc = nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False)
print(enc(x).shape, len(enc.layers))
print(sum(p.numel() for p in layer.parameters()))
print([n for n, _ in layer.named_children()])
