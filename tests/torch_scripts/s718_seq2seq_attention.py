import torch
import torch.nn as nn
import torch.nn.functional as F


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(10, 4, padding_idx=0)
        self.rnn = nn.GRU(4, 5, batch_first=True)

    def forward(self, src):
        return self.rnn(self.emb(src))


class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(10, 4)
        self.cell = nn.GRUCell(4 + 5, 5)
        self.out = nn.Linear(10, 10)

    def forward(self, tok, h, enc_out, mask):
        scores = torch.bmm(enc_out, h.unsqueeze(2)).squeeze(2).masked_fill(~mask, float("-inf"))
        attn = F.softmax(scores, dim=1)
        ctx = torch.bmm(attn.unsqueeze(1), enc_out).squeeze(1)
        h = self.cell(torch.cat([self.emb(tok), ctx], 1), h)
        return self.out(torch.cat([h, ctx], 1)), h, attn


enc, dec = Encoder(), Decoder()
with torch.no_grad():
    for m in (enc, dec):
        for i, p in enumerate(m.parameters()):
            p.copy_(torch.sin(torch.arange(p.numel(), dtype=p.dtype) * 0.9 + i).reshape(p.shape) * 0.4)
src = torch.tensor([[3, 4, 5, 0], [6, 2, 0, 0]])
tgt = torch.tensor([[1, 7, 8], [1, 9, 2]])
mask = src != 0
enc_out, h = enc(src)
h = h.squeeze(0)
loss = 0
for t in range(tgt.shape[1] - 1):
    logits, h, attn = dec(tgt[:, t], h, enc_out, mask)
    loss = loss + F.cross_entropy(logits, tgt[:, t + 1])
    print(t, attn.detach().round(decimals=4))
loss.backward()
print(round(loss.item(), 5), enc.emb.weight.grad[0], enc.emb.weight.grad[3].round(decimals=5))
