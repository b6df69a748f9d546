# Beam search decoding with a GRUCell decoder: log-probabilities accumulated per hypothesis,
# topk over beam*vocab flattened scores, backpointers via integer division and remainder,
# length normalization; compared with greedy decoding
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

rng = np.random.default_rng(711)
V, H, EOS, BOS = 6, 8, 5, 0


class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, H)
        self.cell = nn.GRUCell(H, H)
        self.out = nn.Linear(H, V)

    def step(self, tok, h):
        h = self.cell(self.emb(tok), h)
        return F.log_softmax(self.out(h), -1), h


dec = Decoder()
with torch.no_grad():
    for p in dec.parameters():
        p.copy_(torch.from_numpy(rng.normal(0, 0.6, tuple(p.shape))))
h0 = torch.from_numpy(rng.standard_normal((1, H)))


@torch.no_grad()
def greedy(max_len=6):
    tok, h, out, score = torch.tensor([BOS]), h0, [], 0.0
    for _ in range(max_len):
        lp, h = dec.step(tok, h)
        score += lp.max().item()
        tok = lp.argmax(-1)
        out.append(tok.item())
        if tok.item() == EOS:
            break
    return out, score


@torch.no_grad()
def beam_search(k=3, max_len=6, alpha=0.7):
    beams = torch.full((1,), BOS, dtype=torch.long)
    h = h0
    scores = torch.zeros(1)
    seqs = [[]]
    finished = []
    for t in range(max_len):
        lp, h = dec.step(beams, h)
        total = (scores.unsqueeze(1) + lp).view(-1)
        top, idx = total.topk(k)
        src, tok = idx // V, idx % V
        new_seqs, keep = [], []
        for s, w, sc in zip(src.tolist(), tok.tolist(), top.tolist()):
            seq = seqs[s] + [w]
            if w == EOS:
                finished.append((sc / len(seq) ** alpha, seq))
            else:
                new_seqs.append(seq)
                keep.append(len(new_seqs) - 1)
        mask = tok != EOS
        if mask.sum() == 0:
            break
        seqs, beams, scores, h = new_seqs, tok[mask], top[mask], h[src[mask]]
    finished += [(s / len(q) ** alpha, q) for s, q in zip(scores.tolist(), seqs)]
    return sorted(finished, key=lambda x: -x[0])[:3]


print(greedy()[0], round(greedy()[1], 5))
for sc, seq in beam_search():
    print(round(sc, 5), seq)
lp, _ = dec.step(torch.tensor([BOS, 1]), h0.expand(2, H))
print(lp.exp().detach().numpy().round(4))
