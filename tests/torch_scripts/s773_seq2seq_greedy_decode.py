# Encoder-decoder with an LSTM encoder, GRUCell-free LSTMCell decoder, Luong dot attention,
# teacher forcing by a fixed schedule, greedy decoding with argmax and early stop on <eos>
import torch
import torch.nn as nn
import torch.nn.functional as F

SOS, EOS, V, H = 0, 1, 7, 6


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, H)
        self.rnn = nn.LSTM(H, H, batch_first=True)

    def forward(self, src):
        return self.rnn(self.emb(src))


class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, H)
        self.cell = nn.LSTMCell(H, H)
        self.out = nn.Linear(2 * H, V)

    def forward(self, tok, state, enc_out):
        h, c = self.cell(self.emb(tok), state)
        scores = torch.bmm(enc_out, h.unsqueeze(2)).squeeze(2)
        attn = F.softmax(scores, dim=1)
        context = torch.bmm(attn.unsqueeze(1), enc_out).squeeze(1)
        return F.log_softmax(self.out(torch.cat([h, context], 1)), dim=1), (h, c), attn


enc, dec = Encoder(), Decoder()
with torch.no_grad():
    for k, p in enumerate(list(enc.parameters()) + list(dec.parameters())):
        p.copy_(0.3 * torch.sin(torch.arange(p.numel(), dtype=p.dtype) * 0.41 + k).view_as(p))
src = torch.tensor([[2, 3, 4, 5], [6, 5, 4, 3]])
tgt = torch.tensor([[5, 4, 3, 2, EOS], [3, 4, 5, 6, EOS]])
params = list(enc.parameters()) + list(dec.parameters())
opt = torch.optim.Adam(params, lr=0.02)
for epoch in range(15):
    opt.zero_grad()
    enc_out, (h, c) = enc(src)
    state = (h[0], c[0])
    tok = torch.full((2,), SOS, dtype=torch.long)
    loss = 0.0
    for t in range(tgt.size(1)):
        logp, state, _ = dec(tok, state, enc_out)
        loss = loss + F.nll_loss(logp, tgt[:, t])
        tok = tgt[:, t] if epoch % 2 == 0 else logp.argmax(1).detach()
    loss = loss / tgt.size(1)
    loss.backward()
    nn.utils.clip_grad_norm_(params, 1.0)
    opt.step()
    if epoch % 5 == 0:
        print(f"epoch {epoch} loss {loss.item():.5f}")
with torch.no_grad():
    enc_out, (h, c) = enc(src[:1])
    state, tok, decoded, attns = (h[0], c[0]), torch.tensor([SOS]), [], []
    for _ in range(8):
        logp, state, attn = dec(tok, state, enc_out)
        tok = logp.argmax(1)
        if tok.item() == EOS:
            break
        decoded.append(tok.item())
        attns.append(attn)
print(decoded, len(attns), torch.stack(attns).shape if attns else None)
