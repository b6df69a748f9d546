import torch
import torch.nn as nn

layer = nn.TransformerEncoderLayer(d_model=8, nhead=2, dim_feedforward=16, dropout=0.0, batch_first=True,
                                   norm_first=True, activation="gelu")
enc = nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False)
with torch.no_grad():
    for i, p in enumerate(enc.parameters()):
        p.copy_(0.3 * torch.sin(torch.arange(p.numel(), dtype=p.dtype) * 0.37 + i).reshape(p.shape))
print(len(enc.layers), enc.layers[0].self_attn.num_heads, enc.layers[0].norm_first)
src = torch.cos(torch.arange(2 * 5 * 8, dtype=torch.float64) * 0.1).reshape(2, 5, 8)
pad = torch.tensor([[False, False, False, True, True], [False, False, False, False, False]])
enc.train()
out = enc(src, src_key_padding_mask=pad)
print(out.shape, out.requires_grad)
print(out[0, :3, :4].detach().round(decimals=4))
causal = nn.Transformer.generate_square_subsequent_mask(5)
print(causal)
out2 = enc(src, mask=causal, is_causal=True)
print(out2[1, 0, :4].detach().round(decimals=4))
out3 = enc(src[:, :1], mask=causal[:1, :1])
print(torch.allclose(out3[:, 0], out2[:, 0]))
loss = out.pow(2).mean()
loss.backward()
print(enc.layers[1].linear2.weight.grad.shape, round(loss.item(), 5))
n_params = sum(p.numel() for p in enc.parameters())
print(n_params, [n for n, _ in enc.layers[0].named_children()])
