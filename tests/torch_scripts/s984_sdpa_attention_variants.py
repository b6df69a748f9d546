# F.scaled_dot_product_attention: causal, bool and float masks, scale=, dropout_p=0, and the manual formula
import math
import torch
import torch.nn.functional as F

q = torch.arange(24.0).view(1, 2, 3, 4) / 10
k = torch.arange(24.0).flip(0).view(1, 2, 3, 4) / 10
v = torch.arange(24.0).view(1, 2, 3, 4).cos()
out = F.scaled_dot_product_attention(q, k, v, is_causal=True)
print(out.shape, out[0, 0].round(decimals=4))
mask = torch.tensor([[True, False, True], [True, True, False], [False, True, True]])
print(F.scaled_dot_product_attention(q, k, v, attn_mask=mask)[0, 1].round(decimals=4))
fm = torch.zeros(3, 3).masked_fill(~mask, float("-inf"))
print(torch.allclose(F.scaled_dot_product_attention(q, k, v, attn_mask=fm),
                     F.scaled_dot_product_attention(q, k, v, attn_mask=mask)))
print(F.scaled_dot_product_attention(q, k, v, scale=0.1)[0, 0, 0].round(decimals=4))
manual = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(4), dim=-1) @ v
print(torch.allclose(manual, F.scaled_dot_product_attention(q, k, v)))
qq = q.clone().requires_grad_()
F.scaled_dot_product_attention(qq, k, v, is_causal=True).sum().backward()
print(qq.grad[0, 0].round(decimals=4))
print(F.scaled_dot_product_attention(q[:, :, :2], k, v).shape)
