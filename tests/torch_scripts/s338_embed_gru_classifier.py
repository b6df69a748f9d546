import torch
import torch.nn as nn
import torch.nn.functional as F

vocab = {w: i + 1 for i, w in enumerate("the cat sat on mat dog ran far".split())}
sents = ["the cat sat", "the dog ran far", "cat on mat", "dog sat"]
labels = torch.tensor([0, 1, 0, 1])
ids = [torch.tensor([vocab[w] for w in s.split()]) for s in sents]
batch = nn.utils.rnn.pad_sequence(ids, batch_first=True)
lengths = torch.tensor([len(i) for i in ids])
print(batch)


class Clf(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(len(vocab) + 1, 4, padding_idx=0)
        self.gru = nn.GRU(4, 5, num_layers=2, batch_first=True, dropout=0.0)
        self.out = nn.Linear(5, 2)

    def forward(self, x, lengths):
        e = self.emb(x)
        o, h = self.gru(e)
        last = o[torch.arange(x.size(0)), lengths - 1]
        return self.out(last), h


m = Clf()
with torch.no_grad():
    for i, p in enumerate(m.parameters()):
        p.copy_(0.3 * torch.sin(torch.arange(p.numel(), dtype=p.dtype) * 0.7 + i).view_as(p))
    m.emb.weight[0].zero_()
opt = torch.optim.Adagrad(m.parameters(), lr=0.1)
for ep in range(4):
    opt.zero_grad()
    logits, h = m(batch, lengths)
    loss = F.cross_entropy(logits, labels, label_smoothing=0.1)
    loss.backward()
    print(ep, round(loss.item(), 6), m.emb.weight.grad[0].abs().sum().item())
    opt.step()
print(h.shape, logits.argmax(1))
print(m.emb.weight[0], m.emb)
e2 = nn.Embedding(5, 3, max_norm=1.0)
with torch.no_grad():
    e2.weight.copy_(torch.arange(15.0).view(5, 3))
out = e2(torch.tensor([1, 1, 3]))
print(out.norm(dim=1), e2.weight.norm(dim=1))
e3 = nn.Embedding.from_pretrained(torch.eye(3), freeze=True)
print(e3(torch.tensor([[2, 0]])), e3.weight.requires_grad)
