import torch
import torch.nn as nn

torch.manual_seed(0)
d = 8
dec_layer = nn.TransformerDecoderLayer(d_model=d, nhead=2, dim_feedforward=16, dropout=0.0, activation="gelu", batch_first=True, norm_first=True)
decoder = nn.TransformerDecoder(dec_layer, num_layers=2, norm=nn.LayerNorm(d))
with torch.no_grad():
    for i, p in enumerate(decoder.parameters()):
        p.copy_(0.25 * torch.sin(torch.arange(p.numel(), dtype=p.dtype) * 0.41 + i).view_as(p))
tgt = torch.linspace(-1, 1, 2 * 4 * d).view(2, 4, d)
memory = torch.linspace(1, -1, 2 * 5 * d).view(2, 5, d).cos()
mask = nn.Transformer.generate_square_subsequent_mask(4)
print(mask)
mem_pad = torch.tensor([[False] * 5, [False, False, False, True, True]])
tgt_pad = torch.tensor([[False] * 4, [False, False, False, True]])
out = decoder(tgt, memory, tgt_mask=mask, memory_key_padding_mask=mem_pad, tgt_key_padding_mask=tgt_pad)
print(out.shape)
print(out[1, :3].round(decimals=4))
out.pow(2).mean().backward()
print(round(decoder.layers[0].multihead_attn.in_proj_weight.grad.norm().item(), 6))
out_c = decoder(tgt, memory, tgt_mask=mask, tgt_is_causal=True)
print(out_c.shape)
enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(d, 2, 16, 0.0, batch_first=True), num_layers=1, enable_nested_tensor=False)
with torch.no_grad():
    for i, p in enumerate(enc.parameters()):
        p.copy_(0.25 * torch.cos(torch.arange(p.numel(), dtype=p.dtype) * 0.3 + i).view_as(p))
e = enc(memory, src_key_padding_mask=mem_pad)
print(e.shape, e[1, 0].round(decimals=4))
t = nn.Transformer(d_model=d, nhead=2, num_encoder_layers=1, num_decoder_layers=1, dim_feedforward=8, dropout=0.0, batch_first=True)
print(sum(p.numel() for p in t.parameters()), t(memory, tgt).shape)
print(dec_layer)
