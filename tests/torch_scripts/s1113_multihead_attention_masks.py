# MultiheadAttention with key_padding_mask, bool attn_mask, average_attn_weights=False, kdim/vdim
import torch
import torch.nn as nn

mha = nn.MultiheadAttention(embed_dim=4, num_heads=2, batch_first=True)
with torch.no_grad():
    for n, p in mha.named_parameters():
        p.copy_(torch.linspace(-0.5, 0.5, p.numel()).view_as(p))
q = torch.arange(24.0).view(2, 3, 4) / 10
kpm = torch.tensor([[False, False, True], [False, False, False]])
out, w = mha(q, q, q, key_padding_mask=kpm)
print(out.shape, w.shape)
print(torch.round(w, decimals=6))
causal = nn.Transformer.generate_square_subsequent_mask(3)
print(causal)
out2, w2 = mha(q, q, q, attn_mask=causal, average_attn_weights=False)
print(w2.shape, torch.round(w2[0, 1], decimals=6))
out3, w3 = mha(q, q, q, need_weights=False)
print(w3, out3.shape)
kv = nn.MultiheadAttention(4, 1, kdim=3, vdim=5)
print([n for n, _ in kv.named_parameters()])
print(kv(torch.ones(2, 1, 4), torch.ones(3, 1, 3), torch.ones(3, 1, 5))[0].shape)
