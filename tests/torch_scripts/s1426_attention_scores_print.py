# scaled dot-product attention written by hand: printed intermediates and their grad_fns
import math
import torch

q = torch.tensor([[[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]], requires_grad=True)
k = torch.tensor([[[1.0, 2.0], [0.5, -1.0], [0.0, 0.0]]], requires_grad=True)
v = torch.tensor([[[1.0, 0.0], [0.0, 1.0], [2.0, 2.0]]])
scores = q @ k.transpose(-2, -1) / math.sqrt(2)
print(scores)
mask = torch.triu(torch.ones(3, 3, dtype=torch.bool), 1)
scores = scores.masked_fill(mask, float("-inf"))
attn = scores.softmax(-1)
out = attn @ v
print(attn)
print(out)
out.sum().backward()
print(q.grad)
print(k.grad)
ref = torch.nn.functional.scaled_dot_product_attention(q.detach(), k.detach(), v, is_causal=True)
print(torch.allclose(ref, out.detach()))
