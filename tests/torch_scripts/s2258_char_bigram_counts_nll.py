import torch
import torch.nn.functional as F

text = "the cat sat on the mat. the rat ate."
chars = sorted(set(text))
stoi = {c: i + 1 for i, c in enumerate(chars)}
PAD = 0
V = len(chars) + 1
ids = torch.tensor([stoi[c] for c in text])
pairs = torch.stack([ids[:-1], ids[1:]], 1)
counts = torch.zeros(V, V)
counts.index_put_((pairs[:, 0], pairs[:, 1]), torch.ones(len(pairs)), accumulate=True)
flat = torch.bincount(pairs[:, 0] * V + pairs[:, 1], minlength=V * V).view(V, V)
print(torch.equal(counts.long(), flat), int(counts.sum()))
probs = (counts + 1) / (counts + 1).sum(1, keepdim=True)
nll = -probs[pairs[:, 0], pairs[:, 1]].log().mean()
print(round(nll.item(), 6))
top = counts[stoi["t"]].topk(2)
print([chars[i - 1] for i in top.indices.tolist()], top.values.tolist())
W = torch.zeros(V, V, requires_grad=True)
opt = torch.optim.Adam([W], lr=0.3)
inputs = torch.cat([pairs[:, 0], torch.tensor([PAD, PAD])])
targets = torch.cat([pairs[:, 1], torch.tensor([PAD, PAD])])
for step in range(60):
    loss = F.cross_entropy(W[inputs], targets, ignore_index=PAD)
    opt.zero_grad()
    loss.backward()
    opt.step()
print(round(loss.item(), 4), W.grad[PAD].abs().sum().item())
print(round(F.nll_loss(F.log_softmax(W[inputs], 1), targets, ignore_index=PAD, reduction="sum").item(), 3))
g = torch.Generator().manual_seed(1)
row = F.softmax(W[stoi["a"]].detach(), 0)
samples = torch.multinomial(row, 5, replacement=True, generator=g)
print(samples.shape, bool((row[samples] > 0).all()))
print(row.argmax().item() == stoi["t"], chars[row.argmax().item() - 1])
