import torch
import torch.nn as nn

mha = nn.MultiheadAttention(embed_dim=4, num_heads=2, add_bias_kv=True, add_zero_attn=True, batch_first=True)
with torch.no_grad():
    for i, (n, p) in enumerate(mha.named_parameters()):
        p.copy_(torch.sin(torch.arange(p.numel()) * 0.53 + i).reshape(p.shape) * 0.4)
print(sorted(n for n, _ in mha.named_parameters()), mha.bias_k.shape)
q = torch.cos(torch.arange(2 * 3 * 4) * 0.3).reshape(2, 3, 4)
out, w = mha(q, q, q)
print(out.shape, w.shape)
print(out[0].round(decimals=4))
print(w[1].round(decimals=4))
out2, w2 = mha(q, q, q, average_attn_weights=False)
print(w2.shape, torch.allclose(w2.mean(1), w))
kpm = torch.tensor([[False, False, True], [False, False, False]])
out3, w3 = mha(q, q, q, key_padding_mask=kpm)
print(w3[0].round(decimals=4))
out.sum().backward()
print(mha.bias_k.grad.round(decimals=4), mha.in_proj_bias.grad.shape)
cross = nn.MultiheadAttention(4, 1, kdim=3, vdim=2, batch_first=False)
with torch.no_grad():
    for i, p in enumerate(cross.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel()) * 0.7 + i).reshape(p.shape) * 0.3)
print(sorted(n for n, _ in cross.named_parameters()))
qq = torch.ones(2, 1, 4)
kk = torch.arange(9.0).reshape(3, 1, 3) / 9
vv = torch.arange(6.0).reshape(3, 1, 2) / 6
o, aw = cross(qq, kk, vv, need_weights=True)
print(o.round(decimals=4), aw.round(decimals=4))
o, aw = cross(qq, kk, vv, need_weights=False)
print(aw)
