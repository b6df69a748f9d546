# Skip-gram with negative sampling: two nn.Embedding tables, logsigmoid, bmm, SparseAdam-free
import torch
import torch.nn as nn
import torch.nn.functional as F

corpus = "the quick brown fox jumps over the lazy dog the fox".split()
vocab = sorted(set(corpus))
word2idx = {w: i for i, w in enumerate(vocab)}
idx2word = {i: w for w, i in word2idx.items()}
print(len(vocab), word2idx["fox"], idx2word[0])

pairs = []
window = 2
for i, w in enumerate(corpus):
    for j in range(max(0, i - window), min(len(corpus), i + window + 1)):
        if i != j:
            pairs.append((word2idx[w], word2idx[corpus[j]]))
print(len(pairs), pairs[:3])


class SkipGramNeg(nn.Module):
    def __init__(self, vocab_size, embed_dim):
        super().__init__()
        self.in_embed = nn.Embedding(vocab_size, embed_dim)
        self.out_embed = nn.Embedding(vocab_size, embed_dim)
        initrange = 0.5 / embed_dim
        with torch.no_grad():
            n = vocab_size * embed_dim
            self.in_embed.weight.copy_(initrange * torch.sin(torch.arange(n, dtype=torch.float64)).view(vocab_size, embed_dim))
            self.out_embed.weight.copy_(initrange * torch.cos(torch.arange(n, dtype=torch.float64)).view(vocab_size, embed_dim))

    def forward(self, center, context, negatives):
        v = self.in_embed(center)                      # (B, D)
        u = self.out_embed(context)                    # (B, D)
        u_neg = self.out_embed(negatives)              # (B, K, D)
        pos = F.logsigmoid(torch.sum(v * u, dim=1))
        neg = F.logsigmoid(-torch.bmm(u_neg, v.unsqueeze(2)).squeeze(2)).sum(1)
        return -(pos + neg).mean()


model = SkipGramNeg(len(vocab), 6)
opt = torch.optim.SGD(model.parameters(), lr=1.0)
centers = torch.tensor([p[0] for p in pairs])
contexts = torch.tensor([p[1] for p in pairs])
negatives = (centers.unsqueeze(1) + torch.arange(1, 4)) % len(vocab)
print(negatives.shape, negatives.dtype)
for epoch in range(50):
    opt.zero_grad()
    loss = model(centers, contexts, negatives)
    loss.backward()
    opt.step()
    if epoch % 10 == 0:
        print(f"epoch {epoch:2d} loss {loss.item():.6f}")

emb = F.normalize(model.in_embed.weight.detach(), dim=1)
sims = emb @ emb[word2idx["fox"]]
top = torch.topk(sims, 3)
print([idx2word[i] for i in top.indices.tolist()], [round(v, 4) for v in top.values.tolist()])
print(round(F.cosine_similarity(emb[0:1], emb[1:2]).item(), 5))
