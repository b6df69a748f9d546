import torch
import torch.nn as nn

V, E, H = 7, 4, 5
class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, E, padding_idx=0)
        self.rnn = nn.GRU(E, H, batch_first=True)
    def forward(self, src):
        return self.rnn(self.emb(src))

class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, E)
        self.rnn = nn.GRU(E, H, batch_first=True)
        self.out = nn.Linear(H, V)
    def forward(self, tok, h):
        o, h = self.rnn(self.emb(tok), h)
        return self.out(o), h

enc, dec = Encoder(), Decoder()
for m in (enc, dec):
    with torch.no_grad():
        for i, p in enumerate(m.parameters()):
            p.copy_(torch.sin(torch.arange(p.numel()) * 0.37 + i).reshape(p.shape) * 0.5)
with torch.no_grad():
    enc.emb.weight[0].zero_()
src = torch.tensor([[1, 2, 3, 0], [4, 5, 0, 0]])
tgt = torch.tensor([[2, 3, 4], [5, 6, 1]])
params = list(enc.parameters()) + list(dec.parameters())
opt = torch.optim.Adam(params, lr=0.05)
crit = nn.CrossEntropyLoss()
for epoch in range(6):
    opt.zero_grad()
    _, h = enc(src)
    tok = torch.full((2, 1), 1, dtype=torch.long)
    loss = 0
    for t in range(tgt.size(1)):
        logits, h = dec(tok, h)
        loss = loss + crit(logits.squeeze(1), tgt[:, t])
        tok = tgt[:, t:t + 1]
    loss.backward()
    nn.utils.clip_grad_norm_(params, 1.0)
    opt.step()
    print(epoch, round(loss.item() / tgt.size(1), 5))
print(enc.emb.weight.grad[0], enc.emb.weight[0])
with torch.no_grad():
    _, h = enc(src)
    tok = torch.full((2, 1), 1, dtype=torch.long)
    outs = []
    for t in range(3):
        logits, h = dec(tok, h)
        tok = logits.argmax(-1)
        outs.append(tok)
print(torch.cat(outs, 1))
