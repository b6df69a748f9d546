import torch
import torch.nn.functional as F

B, H, L, D = 1, 2, 4, 3
q = torch.sin(torch.arange(B * H * L * D * 1.0) * 0.7).reshape(B, H, L, D).requires_grad_()
k = torch.cos(torch.arange(B * H * L * D * 1.0) * 0.3).reshape(B, H, L, D)
v = torch.arange(B * H * L * D * 1.0).reshape(B, H, L, D) / 10
o = F.scaled_dot_product_attention(q, k, v)
print(o[0, 0].round(decimals=4))
oc = F.scaled_dot_product_attention(q, k, v, is_causal=True)
print(oc[0, 1].round(decimals=4))
bm = torch.tensor([[True, True, False, False]] * 4)
ob = F.scaled_dot_product_attention(q, k, v, attn_mask=bm)
print(ob[0, 0, 0].round(decimals=4))
fm = torch.zeros(L, L)
fm[:, -1] = float("-inf")
of = F.scaled_dot_product_attention(q, k, v, attn_mask=fm, scale=0.5)
print(of[0, 1, 2].round(decimals=4))
manual = torch.softmax(q @ k.transpose(-2, -1) / D ** 0.5 + torch.triu(torch.full((L, L), float("-inf")), 1), -1) @ v
print(torch.allclose(manual, oc))
oc.sum().backward()
print(q.grad[0, 0].round(decimals=4))
kv = torch.ones(B, 1, L, D)
og = F.scaled_dot_product_attention(q.detach(), kv, kv, enable_gqa=True)
print(og.shape)
print(F.scaled_dot_product_attention(q.detach(), k, v, dropout_p=0.0).shape)
