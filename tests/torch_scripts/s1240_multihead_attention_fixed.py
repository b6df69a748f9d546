# MultiheadAttention with fixed weights, batch_first, key_padding_mask, averaged weights
import torch
import torch.nn as nn

mha = nn.MultiheadAttention(4, 2, batch_first=True)
with torch.no_grad():
    mha.in_proj_weight.copy_(torch.linspace(-1, 1, 48).reshape(12, 4))
    mha.in_proj_bias.zero_()
    mha.out_proj.weight.copy_(torch.eye(4))
    mha.out_proj.bias.zero_()
q = torch.tensor([[[1.0, 0.0, 0.0, 1.0], [0.0, 1.0, 1.0, 0.0], [1.0, 1.0, 0.0, 0.0]]])
mask = torch.tensor([[False, False, True]])
out, w = mha(q, q, q, key_padding_mask=mask)
print(out)
print(w)
out2, w2 = mha(q, q, q, need_weights=True, average_attn_weights=False)
print(w2.shape)
print(mha(q, q, q, need_weights=False)[1])
