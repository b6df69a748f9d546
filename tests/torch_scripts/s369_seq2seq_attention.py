import torch
import torch.nn as nn
import torch.nn.functional as F


class Encoder(nn.Module):
    def __init__(self, v, e, h):
        super().__init__()
        self.emb = nn.Embedding(v, e)
        self.rnn = nn.GRU(e, h, batch_first=True, bidirectional=True)
        self.fc = nn.Linear(2 * h, h)

    def forward(self, src):
        out, h = self.rnn(self.emb(src))
        hidden = torch.tanh(self.fc(torch.cat([h[-2], h[-1]], dim=1)))
        return out, hidden


class Attn(nn.Module):
    def __init__(self, h):
        super().__init__()
        self.W = nn.Linear(3 * h, h)
        self.v = nn.Linear(h, 1, bias=False)

    def forward(self, hidden, enc):
        T = enc.size(1)
        hid = hidden.unsqueeze(1).repeat(1, T, 1)
        e = torch.tanh(self.W(torch.cat([hid, enc], dim=2)))
        return F.softmax(self.v(e).squeeze(2), dim=1)


class Decoder(nn.Module):
    def __init__(self, v, e, h):
        super().__init__()
        self.emb = nn.Embedding(v, e)
        self.attn = Attn(h)
        self.cell = nn.GRUCell(e + 2 * h, h)
        self.out = nn.Linear(h, v)

    def forward(self, tok, hidden, enc):
        a = self.attn(hidden, enc)
        ctx = torch.bmm(a.unsqueeze(1), enc).squeeze(1)
        hidden = self.cell(torch.cat([self.emb(tok), ctx], 1), hidden)
        return self.out(hidden), hidden, a


V, E, H = 7, 4, 5
enc, dec = Encoder(V, E, H), Decoder(V, E, H)
for k, m in enumerate([enc, dec]):
    with torch.no_grad():
        for i, p in enumerate(m.parameters()):
            p.copy_(0.3 * torch.sin(torch.arange(p.numel(), dtype=p.dtype) * 0.61 + i + 3 * k).view_as(p))
src = torch.tensor([[1, 2, 3, 4], [4, 3, 2, 1]])
trg = torch.tensor([[0, 5, 6, 2], [0, 2, 6, 5]])
params = list(enc.parameters()) + list(dec.parameters())
opt = torch.optim.Adam(params, lr=0.01)
for ep in range(3):
    opt.zero_grad()
    enc_out, hidden = enc(src)
    loss = 0.0
    tok = trg[:, 0]
    for t in range(1, trg.size(1)):
        logits, hidden, a = dec(tok, hidden, enc_out)
        loss = loss + F.cross_entropy(logits, trg[:, t])
        tok = trg[:, t] if ep % 2 == 0 else logits.argmax(1)
    loss.backward()
    torch.nn.utils.clip_grad_norm_(params, 1.0)
    opt.step()
    print(ep, round(loss.item() / 3, 6), a.shape, a.sum(1).round(decimals=6))
print(a.round(decimals=4))
