# Linear-chain CRF on top of emission scores (BiLSTM-CRF tutorial style): forward algorithm
# with logsumexp for the partition function, gold path score, Viterbi decoding
import numpy as np
import torch
import torch.nn as nn

START, STOP = 3, 4
NT = 5
rng = np.random.default_rng(231)


class CRF(nn.Module):
    def __init__(self):
        super().__init__()
        t = torch.from_numpy(rng.normal(0, 0.5, (NT, NT)))
        t[START, :] = -10000.0
        t[:, STOP] = -10000.0
        self.transitions = nn.Parameter(t)

    def forward_alg(self, feats):
        alpha = torch.full((NT,), -10000.0)
        alpha[START] = 0.0
        for feat in feats:
            alpha = torch.logsumexp(alpha.unsqueeze(0) + self.transitions + feat.unsqueeze(1), 1)
        return torch.logsumexp(alpha + self.transitions[STOP], 0)

    def score(self, feats, tags):
        tags = torch.cat([torch.tensor([START]), tags])
        s = torch.zeros(())
        for i, feat in enumerate(feats):
            s = s + self.transitions[tags[i + 1], tags[i]] + feat[tags[i + 1]]
        return s + self.transitions[STOP, tags[-1]]

    def viterbi(self, feats):
        backptrs = []
        v = torch.full((NT,), -10000.0)
        v[START] = 0
        for feat in feats:
            scores = v.unsqueeze(0) + self.transitions
            best, idx = scores.max(1)
            backptrs.append(idx)
            v = best + feat
        term = v + self.transitions[STOP]
        best_score, best = term.max(0)
        path = [best.item()]
        for bp in reversed(backptrs):
            path.append(bp[path[-1]].item())
        assert path.pop() == START
        return best_score, path[::-1]


class Tagger(nn.Module):
    def __init__(self, V=8):
        super().__init__()
        self.emb = nn.Embedding(V, 4)
        self.lstm = nn.LSTM(4, 3, bidirectional=True)
        self.h2t = nn.Linear(6, NT)
        self.crf = CRF()

    def emissions(self, sent):
        out, _ = self.lstm(self.emb(sent).unsqueeze(1))
        return self.h2t(out.squeeze(1))

    def nll(self, sent, tags):
        f = self.emissions(sent)
        return self.crf.forward_alg(f) - self.crf.score(f, tags)


model = Tagger()
with torch.no_grad():
    for n, p in model.named_parameters():
        if "transitions" not in n:
            p.copy_(torch.from_numpy(rng.normal(0, 0.4, tuple(p.shape))))
data = [(torch.tensor([1, 2, 3, 4]), torch.tensor([0, 1, 1, 2])),
        (torch.tensor([5, 6, 2]), torch.tensor([2, 0, 1]))]
opt = torch.optim.SGD(model.parameters(), lr=0.05, weight_decay=1e-4)
for epoch in range(6):
    total = 0.0
    for sent, tags in data:
        model.zero_grad()
        loss = model.nll(sent, tags)
        loss.backward()
        opt.step()
        total += loss.item()
    print(epoch, f"{total:.6f}")
with torch.no_grad():
    for sent, tags in data:
        s, path = model.crf.viterbi(model.emissions(sent))
        print(round(s.item(), 5), path, tags.tolist())
print(model.crf.transitions.grad[:3, :3].numpy().round(6))
