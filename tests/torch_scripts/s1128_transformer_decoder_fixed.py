# TransformerDecoderLayer/Transformer in eval mode with constant-ish weights: shapes and a few values
import torch
import torch.nn as nn

layer = nn.TransformerDecoderLayer(d_model=4, nhead=2, dim_feedforward=8, dropout=0.0, batch_first=True)
with torch.no_grad():
    for i, p in enumerate(layer.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=p.dtype) + i).view_as(p) * 0.3)
dec = nn.TransformerDecoder(layer, num_layers=2, norm=nn.LayerNorm(4))
dec.eval()
tgt = torch.arange(24.0).view(2, 3, 4) / 20
mem = torch.cos(torch.arange(16.0)).view(2, 2, 4)
mask = nn.Transformer.generate_square_subsequent_mask(3)
out = dec(tgt, mem, tgt_mask=mask, tgt_is_causal=True)
print(out.shape)
print(torch.round(out[0], decimals=5))
print(torch.round(dec(tgt, mem, memory_key_padding_mask=torch.tensor([[False, True], [False, False]]))[0, 0], decimals=5))
t = nn.Transformer(d_model=4, nhead=1, num_encoder_layers=1, num_decoder_layers=1, dim_feedforward=4, dropout=0.0)
print(t(torch.zeros(3, 2, 4), torch.zeros(5, 2, 4)).shape, sum(p.numel() for p in t.parameters()))
