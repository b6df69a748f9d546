# MultiheadAttention with a causal float mask vs bool mask give the same result
import torch
import torch.nn as nn

torch.manual_seed(0)
mha = nn.MultiheadAttention(6, 3)
x = torch.randn(4, 1, 6)
bool_mask = torch.triu(torch.ones(4, 4, dtype=torch.bool), diagonal=1)
float_mask = torch.zeros(4, 4).masked_fill(bool_mask, float("-inf"))
o1, w1 = mha(x, x, x, attn_mask=bool_mask)
o2, w2 = mha(x, x, x, attn_mask=float_mask)
print(torch.allclose(o1, o2), torch.allclose(w1, w2))
print((w1[0] > 0).int())
print(w1.sum(-1))
print(nn.Transformer.generate_square_subsequent_mask(3))
