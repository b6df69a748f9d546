# scaled_dot_product_attention: causal, explicit scale, boolean and float masks, gradients
import torch
import torch.nn.functional as F

q = torch.linspace(-1, 1, 1 * 2 * 3 * 4).reshape(1, 2, 3, 4).requires_grad_()
k = torch.linspace(1, -1, 1 * 2 * 3 * 4).reshape(1, 2, 3, 4)
v = torch.arange(24.0).reshape(1, 2, 3, 4) / 10
o = F.scaled_dot_product_attention(q, k, v, is_causal=True)
print(o[0, 0])
o.sum().backward()
print(q.grad[0, 1])
o2 = F.scaled_dot_product_attention(q.detach(), k, v, scale=0.1)
print(o2[0, 0, 0])
bm = torch.tensor([[True, False, True], [True, True, False], [False, True, True]])
print(F.scaled_dot_product_attention(q.detach(), k, v, attn_mask=bm)[0, 1, 2])
fm = torch.zeros(3, 3)
fm[0, 1] = float("-inf")
print(F.scaled_dot_product_attention(q.detach(), k, v, attn_mask=fm)[0, 0, 0])
try:
    F.scaled_dot_product_attention(q.detach(), k, v, attn_mask=bm, is_causal=True)
except RuntimeError as e:
    print(str(e)[:100])
