# nn.MultiheadAttention with key_padding_mask and attn_mask; weights averaged or per head
import torch
import torch.nn as nn

mha = nn.MultiheadAttention(embed_dim=4, num_heads=2, batch_first=True)
with torch.no_grad():
    for i, p in enumerate(mha.parameters()):
        p.copy_(torch.linspace(-0.4, 0.4, p.numel()).reshape(p.shape) * (-1) ** i)
q = torch.linspace(-1, 1, 2 * 3 * 4).reshape(2, 3, 4)
kpm = torch.tensor([[False, False, True], [False, False, False]])
out, w = mha(q, q, q, key_padding_mask=kpm)
print(out.shape, w.shape)
print(w[0])
causal = torch.triu(torch.ones(3, 3, dtype=torch.bool), diagonal=1)
out2, w2 = mha(q, q, q, attn_mask=causal, average_attn_weights=False)
print(w2.shape, w2[1, 0])
out3, none = mha(q, q, q, need_weights=False)
print(none, out3.grad_fn is not None)
out2.sum().backward()
print(mha.in_proj_weight.grad.shape, mha.out_proj.weight.grad.abs().sum() > 0)
print(mha)
