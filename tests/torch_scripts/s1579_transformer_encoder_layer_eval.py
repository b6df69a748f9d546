# TransformerEncoderLayer: norm_first, gelu, key padding masks; train vs eval with dropout 0
import torch
import torch.nn as nn

layer = nn.TransformerEncoderLayer(d_model=4, nhead=2, dim_feedforward=8, dropout=0.0,
                                   activation="gelu", batch_first=True, norm_first=True)
with torch.no_grad():
    for i, p in enumerate(layer.parameters()):
        p.copy_(torch.linspace(-0.3, 0.3, p.numel()).reshape(p.shape) * (1 + 0.1 * i))
x = torch.linspace(-1, 1, 2 * 3 * 4).reshape(2, 3, 4)
mask = torch.tensor([[False, False, True], [False, False, False]])
y = layer(x, src_key_padding_mask=mask)
print(y.shape)
print(y[1].detach())
enc = nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False)
z = enc(x)
print(z[0, 0].detach())
z.sum().backward()
print(enc.layers[0].linear1.weight.grad.shape, enc.layers[1].self_attn.in_proj_bias.grad[4:8].round(decimals=6) + 0.0)
enc.eval()
with torch.no_grad():
    print(torch.allclose(enc(x), z))
