import torch
import torch.nn.functional as F

q = torch.linspace(-1, 1, 24).reshape(1, 2, 3, 4)
k = torch.linspace(0.5, -0.5, 32).reshape(1, 2, 4, 4)
v = torch.linspace(0, 2, 32).reshape(1, 2, 4, 4)
out = F.scaled_dot_product_attention(q, k, v)
print(out.shape, out[0, 0].round(decimals=4))
mask = torch.tensor([[True, True, False, False], [True, True, True, False],
                     [True, True, True, True]])
out_m = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
print(out_m[0, 1].round(decimals=4))
add_mask = torch.zeros(3, 4).masked_fill(~mask, float("-inf"))
print(torch.allclose(out_m, F.scaled_dot_product_attention(q, k, v, attn_mask=add_mask)))
qs = torch.linspace(-1, 1, 32).reshape(1, 2, 4, 4)
causal = F.scaled_dot_product_attention(qs, k, v, is_causal=True)
print(causal[0, 0, 0], causal.shape)
scaled = F.scaled_dot_product_attention(q, k, v, scale=0.1)
print(scaled[0, 0, 0].round(decimals=4))
qg = q.clone().requires_grad_()
F.scaled_dot_product_attention(qg, k, v, attn_mask=mask).sum().backward()
print(qg.grad[0, 0].round(decimals=4))
tri = torch.ones(4, 4).tril().bool()
print(tri)
