import math
import torch
import torch.nn.functional as F

q = torch.linspace(-1, 1, 2 * 2 * 4 * 3).view(2, 2, 4, 3).requires_grad_(True)
k = torch.linspace(0.5, -0.5, 2 * 2 * 5 * 3).view(2, 2, 5, 3).sin().requires_grad_(True)
v = torch.linspace(0, 1, 2 * 2 * 5 * 6).view(2, 2, 5, 6).requires_grad_(True)


def manual(q, k, v, mask=None, scale=None):
    s = q @ k.transpose(-2, -1) * (scale if scale is not None else 1 / math.sqrt(q.size(-1)))
    if mask is not None:
        s = s.masked_fill(~mask, float("-inf")) if mask.dtype == torch.bool else s + mask
    return torch.softmax(s, dim=-1) @ v


o = F.scaled_dot_product_attention(q, k, v)
print(o.shape, torch.allclose(o, manual(q, k, v)))
mask = torch.tensor([[True, True, False, True, False]]).expand(4, 5)
o2 = F.scaled_dot_product_attention(q, k, v, attn_mask=mask, scale=0.3)
print(torch.allclose(o2, manual(q, k, v, mask, 0.3)))
qq = q[..., :4, :]
kk = k[..., :4, :]
vv = v[..., :4, :]
oc = F.scaled_dot_product_attention(qq, kk, vv, is_causal=True)
tri = torch.ones(4, 4, dtype=torch.bool).tril()
print(torch.allclose(oc, manual(qq, kk, vv, tri)))
addmask = torch.linspace(-1, 0, 20).view(4, 5)
o3 = F.scaled_dot_product_attention(q, k, v, attn_mask=addmask)
print(torch.allclose(o3, manual(q, k, v, addmask)))
(o.sum() + (o2 ** 2).sum() + oc.mean()).backward()
print(round(q.grad.sum().item(), 6), round(k.grad.abs().sum().item(), 6), round(v.grad.sum().item(), 6))
print(o[0, 1].round(decimals=4))
try:
    F.scaled_dot_product_attention(q, k, v, attn_mask=tri, is_causal=True)
except RuntimeError as e:
    print("RuntimeError")
o4 = F.scaled_dot_product_attention(q[0], k[0], v[0], dropout_p=0.0)
print(o4.shape, torch.allclose(o4, o[0]))
