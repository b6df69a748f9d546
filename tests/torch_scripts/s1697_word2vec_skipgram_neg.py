# Skip-gram with negative sampling: center/context nn.Embedding tables, logsigmoid of
# positive and negative dot products (negatives drawn by NumPy from a unigram^0.75 table),
# SparseAdam on sparse embedding gradients, nearest neighbours by cosine similarity
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

corpus = ("the cat sat on the mat the dog sat on the rug a cat and a dog "
          "played on the mat the cat saw the dog").split()
vocab = sorted(set(corpus))
w2i = {w: i for i, w in enumerate(vocab)}
ids = [w2i[w] for w in corpus]
pairs = [(ids[i], ids[j]) for i in range(len(ids)) for j in range(max(0, i - 2), min(len(ids), i + 3)) if i != j]
counts = np.bincount(ids, minlength=len(vocab)) ** 0.75
probs = counts / counts.sum()
rng = np.random.default_rng(451)
print(len(vocab), len(pairs))


class SkipGram(nn.Module):
    def __init__(self, V, D=8):
        super().__init__()
        self.u = nn.Embedding(V, D, sparse=True)
        self.v = nn.Embedding(V, D, sparse=True)
        with torch.no_grad():
            self.u.weight.copy_(torch.from_numpy(rng.uniform(-0.5 / D, 0.5 / D, (V, D))))
            self.v.weight.zero_()

    def forward(self, c, o, neg):
        uc = self.u(c)
        pos = F.logsigmoid((uc * self.v(o)).sum(-1))
        negs = F.logsigmoid(-torch.bmm(self.v(neg), uc.unsqueeze(2)).squeeze(2)).sum(-1)
        return -(pos + negs).mean()


model = SkipGram(len(vocab))
opt = torch.optim.SparseAdam(list(model.parameters()), lr=0.05)
P = torch.tensor(pairs)
for epoch in range(5):
    total = 0.0
    for b in range(0, len(P), 16):
        c, o = P[b:b + 16, 0], P[b:b + 16, 1]
        neg = torch.from_numpy(rng.choice(len(vocab), size=(len(c), 3), p=probs))
        opt.zero_grad()
        loss = model(c, o, neg)
        loss.backward()
        opt.step()
        total += loss.item() * len(c)
    print(epoch, f"{total / len(P):.6f}")
print(model.u.weight.grad is not None, model.u.weight.grad.shape)
E = F.normalize(model.u.weight.detach(), dim=1)
sims = E @ E[w2i["cat"]]
top = sims.topk(3).indices.tolist()
print([vocab[i] for i in top], sims[top].numpy().round(4))
