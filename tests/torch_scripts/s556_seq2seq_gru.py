import torch
import torch.nn as nn


class Encoder(nn.Module):
    def __init__(self, vocab, emb, hid):
        super().__init__()
        self.embedding = nn.Embedding(vocab, emb)
        self.rnn = nn.GRU(emb, hid, batch_first=True)

    def forward(self, src):
        outputs, hidden = self.rnn(self.embedding(src))
        return outputs, hidden


class Decoder(nn.Module):
    def __init__(self, vocab, emb, hid):
        super().__init__()
        self.embedding = nn.Embedding(vocab, emb)
        self.rnn = nn.GRU(emb, hid, batch_first=True)
        self.fc = nn.Linear(hid, vocab)

    def forward(self, tok, hidden):
        out, hidden = self.rnn(self.embedding(tok.unsqueeze(1)), hidden)
        return self.fc(out.squeeze(1)), hidden


V, E, Hd = 7, 4, 5
enc, dec = Encoder(V, E, Hd), Decoder(V, E, Hd)
for m in (enc, dec):
    with torch.no_grad():
        for i, (n, p) in enumerate(m.named_parameters()):
            p.copy_(0.4 * torch.cos(torch.arange(p.numel(), dtype=p.dtype) * 0.61 + i).reshape(p.shape))
src = torch.tensor([[1, 2, 3, 4], [4, 3, 2, 1]])
tgt = torch.tensor([[0, 4, 3, 2, 1], [0, 1, 2, 3, 4]])
params = list(enc.parameters()) + list(dec.parameters())
opt = torch.optim.Adam(params, lr=0.02)
crit = nn.CrossEntropyLoss()
for epoch in range(30):
    opt.zero_grad()
    _, h = enc(src)
    loss = 0
    tok = tgt[:, 0]
    for t in range(1, tgt.size(1)):
        logits, h = dec(tok, h)
        loss = loss + crit(logits, tgt[:, t])
        tok = tgt[:, t]
    loss = loss / (tgt.size(1) - 1)
    loss.backward()
    nn.utils.clip_grad_norm_(params, max_norm=1.0)
    opt.step()
    if epoch % 10 == 9:
        print(epoch, round(loss.item(), 5))
with torch.no_grad():
    outs, h = enc(src)
    print(outs.shape, h.shape, torch.allclose(outs[:, -1], h[0]))
    tok = torch.zeros(2, dtype=torch.long)
    seq = []
    for _ in range(4):
        logits, h = dec(tok, h)
        tok = logits.argmax(-1)
        seq.append(tok)
    print(torch.stack(seq, 1))
print(enc.rnn)
print([n for n, _ in enc.rnn.named_parameters()])
