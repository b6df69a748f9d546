import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class CausalSelfAttention(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.h = h
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.register_buffer("mask", torch.tril(torch.ones(8, 8)).view(1, 1, 8, 8))

    def forward(self, x):
        B, T, C = x.size()
        q, k, v = self.qkv(x).split(C, dim=2)
        q = q.view(B, T, self.h, C // self.h).transpose(1, 2)
        k = k.view(B, T, self.h, C // self.h).transpose(1, 2)
        v = v.view(B, T, self.h, C // self.h).transpose(1, 2)
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
        att = att.masked_fill(self.mask[:, :, :T, :T] == 0, float("-inf"))
        att = F.softmax(att, dim=-1)
        y = att @ v
        y = y.transpose(1, 2).contiguous().view(B, T, C)
        return self.proj(y)


class Block(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.ln1 = nn.LayerNorm(d)
        self.attn = CausalSelfAttention(d, h)
        self.ln2 = nn.LayerNorm(d)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(approximate="tanh"), nn.Linear(4 * d, d), nn.Dropout(0.1))

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.mlp(self.ln2(x))


torch.manual_seed(0)
vocab, d = 11, 8
tok = nn.Embedding(vocab, d)
pos = nn.Embedding(8, d)
blocks = nn.Sequential(Block(d, 2), Block(d, 2))
head = nn.Linear(d, vocab, bias=False)
head.weight = tok.weight
model = nn.ModuleDict({"tok": tok, "pos": pos, "blocks": blocks, "head": head})
with torch.no_grad():
    for i, (n, p) in enumerate(model.named_parameters()):
        p.copy_(0.2 * torch.sin(torch.arange(p.numel(), dtype=p.dtype) * 0.37 + i).view_as(p))
print(len(list(model.parameters())), sum(p.numel() for p in model.parameters()))
model.eval()
idx = torch.tensor([[1, 5, 2, 7, 3], [4, 4, 9, 0, 10]])
x = tok(idx) + pos(torch.arange(5))
logits = head(blocks(x))
loss = F.cross_entropy(logits[:, :-1].reshape(-1, vocab), idx[:, 1:].reshape(-1))
print(logits.shape, round(loss.item(), 6))
loss.backward()
print(round(tok.weight.grad.norm().item(), 6), round(blocks[0].attn.qkv.weight.grad.abs().sum().item(), 6))
decay = {n for n, p in model.named_parameters() if p.dim() >= 2}
print(sorted(decay)[:3], len(decay))
opt = torch.optim.AdamW([{"params": [p for n, p in model.named_parameters() if n in decay], "weight_decay": 0.1},
                         {"params": [p for n, p in model.named_parameters() if n not in decay], "weight_decay": 0.0}], lr=1e-3, betas=(0.9, 0.95))
opt.step()
with torch.no_grad():
    ctx = idx[:1, :2]
    for _ in range(3):
        lg = head(blocks(tok(ctx) + pos(torch.arange(ctx.size(1)))))[:, -1]
        nxt = lg.argmax(-1, keepdim=True)
        ctx = torch.cat([ctx, nxt], 1)
print(ctx)
