# scaled_dot_product_attention: is_causal vs explicit mask, bool mask, scale argument
import torch
import torch.nn.functional as F

q = torch.tensor([[[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]])
k = torch.tensor([[[1.0, 1.0], [0.0, 2.0], [1.0, -1.0]]])
v = torch.tensor([[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]])
a = F.scaled_dot_product_attention(q, k, v, is_causal=True)
m = torch.tril(torch.ones(3, 3, dtype=torch.bool))
b = F.scaled_dot_product_attention(q, k, v, attn_mask=m)
print(a)
print(torch.allclose(a, b))
print(F.scaled_dot_product_attention(q, k, v, scale=1.0))
fm = torch.zeros(3, 3)
fm[:, 0] = -1.0
print(F.scaled_dot_product_attention(q, k, v, attn_mask=fm))
