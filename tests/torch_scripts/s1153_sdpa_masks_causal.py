# scaled_dot_product_attention: is_causal, bool/float attn_mask, scale=, enable_gqa, gradient
import torch
import torch.nn.functional as F

q = torch.sin(torch.arange(24.0)).view(1, 2, 3, 4)
k = torch.cos(torch.arange(24.0)).view(1, 2, 3, 4)
v = torch.arange(24.0).view(1, 2, 3, 4) / 10
print(torch.round(F.scaled_dot_product_attention(q, k, v, is_causal=True)[0, 0], decimals=6))
bm = torch.tensor([[True, False, True], [True, True, False], [False, True, True]])
print(torch.round(F.scaled_dot_product_attention(q, k, v, attn_mask=bm)[0, 1], decimals=6))
fm = torch.zeros(3, 3).masked_fill(~bm, float("-inf"))
print(torch.allclose(F.scaled_dot_product_attention(q, k, v, attn_mask=fm), F.scaled_dot_product_attention(q, k, v, attn_mask=bm)))
print(torch.round(F.scaled_dot_product_attention(q, k, v, scale=0.1)[0, 0, 0], decimals=6))
kk = k[:, :1]
vv = v[:, :1]
print(F.scaled_dot_product_attention(q, kk.expand(1, 2, 3, 4), vv.expand(1, 2, 3, 4)).shape, F.scaled_dot_product_attention(q, kk, vv, enable_gqa=True).shape)
qq = q.clone().requires_grad_()
F.scaled_dot_product_attention(qq, k, v, is_causal=True).sum().backward()
print(torch.round(qq.grad[0, 0], decimals=6))
