import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Transformer(d_model=8, nhead=2, num_encoder_layers=1, num_decoder_layers=1,
                       dim_feedforward=16, dropout=0.0, batch_first=True)
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel()) * 0.5 + i).view_as(p) * 0.25)
src = torch.linspace(-1, 1, 2 * 5 * 8).view(2, 5, 8)
tgt = torch.linspace(1, -1, 2 * 4 * 8).view(2, 4, 8)
tgt_mask = nn.Transformer.generate_square_subsequent_mask(4)
print(tgt_mask)
src_pad = torch.tensor([[False, False, False, True, True], [False] * 5])
out = model(src, tgt, tgt_mask=tgt_mask, src_key_padding_mask=src_pad,
            memory_key_padding_mask=src_pad, tgt_is_causal=True)
print(out.shape, [round(v, 5) for v in out[0, 0, :4].tolist()])
out.pow(2).mean().backward()
g = model.encoder.layers[0].self_attn.in_proj_weight.grad
print(g.shape, round(g.norm().item(), 6))
print(round(model.decoder.layers[0].multihead_attn.out_proj.weight.grad.abs().sum().item(), 6))
# causality: changing the last target token must not move earlier outputs
tgt2 = tgt.clone()
tgt2[:, -1] += 1.0
with torch.no_grad():
    o1 = model(src, tgt, tgt_mask=tgt_mask)
    o2 = model(src, tgt2, tgt_mask=tgt_mask)
print(torch.allclose(o1[:, :-1], o2[:, :-1]), torch.allclose(o1[:, -1], o2[:, -1]))
mha = nn.MultiheadAttention(8, 2, batch_first=True, kdim=3, vdim=5)
print(mha.in_proj_weight, mha.k_proj_weight.shape, mha.v_proj_weight.shape)
o, w = mha(torch.ones(1, 2, 8), torch.ones(1, 4, 3), torch.ones(1, 4, 5), average_attn_weights=False)
print(o.shape, w.shape, torch.allclose(w.sum(-1), torch.ones(1, 2, 2)))
print(type(model.encoder.layers[0]).__name__, len(model.decoder.layers), model.encoder.norm)
