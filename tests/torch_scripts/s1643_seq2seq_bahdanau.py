# Seq2seq with additive (Bahdanau) attention on a toy reversal task, teacher forcing,
# NLLLoss over log_softmax, clip_grad_norm_, greedy decoding under no_grad
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

V, H, T = 7, 10, 5
SOS = 0
rng = np.random.default_rng(5)
src = torch.from_numpy(rng.integers(1, V, size=(8, T)))
tgt = src.flip(1)


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, H)
        self.gru = nn.GRU(H, H, batch_first=True)

    def forward(self, x):
        return self.gru(self.emb(x))


class AttnDecoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, H)
        self.Wa, self.Ua, self.Va = nn.Linear(H, H), nn.Linear(H, H), nn.Linear(H, 1)
        self.gru = nn.GRU(2 * H, H, batch_first=True)
        self.out = nn.Linear(H, V)

    def attend(self, query, keys):
        scores = self.Va(torch.tanh(self.Wa(query) + self.Ua(keys))).squeeze(2).unsqueeze(1)
        weights = F.softmax(scores, dim=-1)
        return torch.bmm(weights, keys), weights

    def step(self, inp, hidden, enc_out):
        e = self.emb(inp)
        ctx, w = self.attend(hidden.permute(1, 0, 2), enc_out)
        out, hidden = self.gru(torch.cat((e, ctx), dim=2), hidden)
        return F.log_softmax(self.out(out), dim=-1), hidden, w

    def forward(self, enc_out, hidden, target=None, steps=T):
        inp = torch.full((enc_out.size(0), 1), SOS, dtype=torch.long)
        outs, attns = [], []
        for t in range(steps):
            o, hidden, w = self.step(inp, hidden, enc_out)
            outs.append(o)
            attns.append(w)
            inp = target[:, t].unsqueeze(1) if target is not None else o.argmax(-1).detach()
        return torch.cat(outs, 1), torch.cat(attns, 1)


enc, dec = Encoder(), AttnDecoder()
for k, p in enumerate(list(enc.parameters()) + list(dec.parameters())):
    with torch.no_grad():
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float64) * (0.3 + 0.01 * k))
                .view_as(p) * 0.4)
params = list(enc.parameters()) + list(dec.parameters())
opt = torch.optim.Adam(params, lr=0.02)
crit = nn.NLLLoss()
for it in range(10):
    opt.zero_grad()
    enc_out, h = enc(src)
    logp, _ = dec(enc_out, h, target=tgt)
    loss = crit(logp.reshape(-1, V), tgt.reshape(-1))
    loss.backward()
    norm = nn.utils.clip_grad_norm_(params, 1.0)
    opt.step()
    if it % 3 == 0 or it == 9:
        print(it, f"{loss.item():.5f}", f"{norm.item():.4f}")

enc.eval(); dec.eval()
with torch.no_grad():
    enc_out, h = enc(src[:2])
    logp, attn = dec(enc_out, h)
    print(logp.argmax(-1).tolist(), tgt[:2].tolist())
    print(attn[0].numpy().round(3))
