# Self-attention from scratch (blog style): Q K V projections, scaled scores, causal mask, heads
import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class SelfAttention(nn.Module):
    def __init__(self, embed_size, heads):
        super(SelfAttention, self).__init__()
        self.embed_size = embed_size
        self.heads = heads
        self.head_dim = embed_size // heads
        assert self.head_dim * heads == embed_size, "Embedding size needs to be divisible by heads"
        self.values = nn.Linear(self.head_dim, self.head_dim, bias=False)
        self.keys = nn.Linear(self.head_dim, self.head_dim, bias=False)
        self.queries = nn.Linear(self.head_dim, self.head_dim, bias=False)
        self.fc_out = nn.Linear(heads * self.head_dim, embed_size)

    def forward(self, values, keys, query, mask):
        N = query.shape[0]
        value_len, key_len, query_len = values.shape[1], keys.shape[1], query.shape[1]
        values = values.reshape(N, value_len, self.heads, self.head_dim)
        keys = keys.reshape(N, key_len, self.heads, self.head_dim)
        queries = query.reshape(N, query_len, self.heads, self.head_dim)
        values = self.values(values)
        keys = self.keys(keys)
        queries = self.queries(queries)
        energy = torch.einsum("nqhd,nkhd->nhqk", [queries, keys])
        if mask is not None:
            energy = energy.masked_fill(mask == 0, float("-1e20"))
        attention = torch.softmax(energy / (self.embed_size ** (1 / 2)), dim=3)
        out = torch.einsum("nhql,nlhd->nqhd", [attention, values]).reshape(N, query_len, self.heads * self.head_dim)
        return self.fc_out(out), attention


torch.manual_seed(0)
att = SelfAttention(8, 2)
with torch.no_grad():
    for i, p in enumerate(att.parameters()):
        p.copy_(0.3 * torch.sin(torch.arange(p.numel(), dtype=p.dtype) * (i + 1)).view_as(p))
x = torch.sin(torch.arange(2 * 5 * 8, dtype=torch.float64) * 0.2).view(2, 5, 8).requires_grad_()
trg_mask = torch.tril(torch.ones((5, 5))).expand(2, 1, 5, 5)
print(trg_mask.shape, trg_mask.dtype)
out, attn = att(x, x, x, trg_mask)
print(out.shape, attn.shape)
print(attn[0, 0].round(decimals=4))
out.sum().backward()
print(x.grad.norm().item() > 0, att.fc_out.weight.grad.shape)
print(torch.allclose(attn.sum(-1), torch.ones(2, 2, 5)))


def scaled_dot_product(q, k, v, mask=None):
    d_k = q.size()[-1]
    attn_logits = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(d_k)
    if mask is not None:
        attn_logits = attn_logits.masked_fill(mask == 0, -9e15)
    attention = F.softmax(attn_logits, dim=-1)
    return torch.matmul(attention, v), attention


q = torch.cos(torch.arange(24.0)).view(1, 2, 3, 4)
vals, a = scaled_dot_product(q, q, q, mask=torch.tensor([[1, 1, 0]]))
print(vals.round(decimals=4))
ref = F.scaled_dot_product_attention(q, q, q, attn_mask=torch.tensor([[True, True, False]]))
print(torch.allclose(vals, ref))
