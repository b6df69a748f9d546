import torch
import torch.nn as nn

mha = nn.MultiheadAttention(embed_dim=4, num_heads=2, kdim=3, vdim=5, batch_first=True)
with torch.no_grad():
    for i, (n, p) in enumerate(mha.named_parameters()):
        p.copy_(0.3 * torch.sin(torch.arange(p.numel(), dtype=p.dtype) * 0.53 + i).reshape(p.shape))
print([(n, tuple(p.shape)) for n, p in mha.named_parameters()])
q = torch.cos(torch.arange(2 * 3 * 4, dtype=torch.float64) * 0.2).reshape(2, 3, 4)
k = torch.sin(torch.arange(2 * 5 * 3, dtype=torch.float64) * 0.3).reshape(2, 5, 3)
v = torch.linspace(-1, 1, 2 * 5 * 5).reshape(2, 5, 5)
out, w = mha(q, k, v)
print(out.shape, w.shape, w.sum(-1).detach())
out2, w2 = mha(q, k, v, average_attn_weights=False)
print(w2.shape, torch.allclose(w2.mean(1), w))
kpm = torch.tensor([[False, False, False, True, True], [False] * 5])
out3, w3 = mha(q, k, v, key_padding_mask=kpm)
print(w3[0, 0].detach().round(decimals=4), out3[0, 0].detach().round(decimals=4))
fkpm = torch.zeros(2, 5).masked_fill(kpm, float("-inf"))
out4, _ = mha(q, k, v, key_padding_mask=fkpm)
print(torch.allclose(out3, out4))
out5, none = mha(q, k, v, need_weights=False)
print(none, torch.allclose(out5, out))
am = torch.zeros(3, 5, dtype=torch.bool)
am[:, -1] = True
out6, w6 = mha(q, k, v, attn_mask=am)
print(w6[1, 2].detach().round(decimals=4))
out.sum().backward()
print(mha.q_proj_weight.grad.shape, mha.in_proj_weight, mha.out_proj.weight.grad.shape)
print(mha._qkv_same_embed_dim, mha.head_dim, mha.batch_first)
