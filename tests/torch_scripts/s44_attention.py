import math
import torch
import torch.nn as nn
import torch.nn.functional as F


def scaled_dot_product(q, k, v, mask=None):
    d_k = q.size()[-1]
    attn_logits = torch.matmul(q, k.transpose(-2, -1))
    attn_logits = attn_logits / math.sqrt(d_k)
    if mask is not None:
        attn_logits = attn_logits.masked_fill(mask == 0, -9e15)
    attention = F.softmax(attn_logits, dim=-1)
    values = torch.matmul(attention, v)
    return values, attention


seq_len, d_k = 3, 2
q = torch.sin(torch.arange(6.)).reshape(seq_len, d_k)
k = torch.cos(torch.arange(6.)).reshape(seq_len, d_k)
v = torch.arange(6.).reshape(seq_len, d_k) / 6
values, attention = scaled_dot_product(q, k, v)
print("Values\n", values, "\nAttention\n", attention)
causal = torch.tril(torch.ones(seq_len, seq_len))
print(scaled_dot_product(q, k, v, mask=causal)[1])
print(torch.allclose(F.scaled_dot_product_attention(q[None], k[None], v[None]), values[None]))
print(torch.allclose(F.scaled_dot_product_attention(q[None], k[None], v[None], is_causal=True), scaled_dot_product(q, k, v, causal)[0]))

mha = nn.MultiheadAttention(embed_dim=4, num_heads=2)
with torch.no_grad():
    for i, p in enumerate(mha.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float64) * 0.3 + i).reshape(p.shape) * 0.5)
print([(n, tuple(p.shape)) for n, p in mha.named_parameters()])
x = torch.cos(torch.arange(24.) * 0.2).reshape(3, 2, 4)
out, w = mha(x, x, x)
print(out.shape, w.shape)
print(out.detach().numpy().round(5))
print(w.detach().numpy().round(5))
out2, w2 = mha(x, x, x, need_weights=True, average_attn_weights=False)
print(w2.shape, torch.allclose(w2.mean(1), w))
attn_mask = nn.Transformer.generate_square_subsequent_mask(3)
out3, w3 = mha(x, x, x, attn_mask=attn_mask)
print(w3[0].detach().numpy().round(4))
kpm = torch.tensor([[False, False, True], [False, True, True]])
out4, w4 = mha(x, x, x, key_padding_mask=kpm)
print(w4.detach().numpy().round(4))
o5, w5 = mha(x, x, x, need_weights=False)
print(w5, torch.allclose(o5, out))
bmha = nn.MultiheadAttention(4, 1, batch_first=True, bias=False)
print(bmha.in_proj_bias, bmha.batch_first, bmha.head_dim if hasattr(bmha, 'head_dim') else None)
print(bmha(x.transpose(0, 1), x.transpose(0, 1), x.transpose(0, 1))[0].shape)
out.sum().backward()
print(mha.in_proj_weight.grad.shape, mha.out_proj.bias.grad.numpy().round(5))
