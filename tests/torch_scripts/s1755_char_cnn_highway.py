# A character-level CNN word encoder with a highway layer (Kim et al.): character
# embeddings, Conv1d filters of several widths with max-over-time pooling, a highway
# gate sigmoid(W x) mixing ReLU(Hx) and x; word classification over a tiny lexicon
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

words = ["cat", "cats", "dog", "dogs", "bird", "birds", "fish", "fishes", "mouse", "mice"]
plural = torch.tensor([0, 1, 0, 1, 0, 1, 0, 1, 0, 1])
chars = sorted(set("".join(words)))
c2i = {c: i + 1 for i, c in enumerate(chars)}
L = max(len(w) for w in words)
ids = torch.tensor([[c2i[c] for c in w] + [0] * (L - len(w)) for w in words])


class Highway(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.h = nn.Linear(d, d)
        self.t = nn.Linear(d, d)

    def forward(self, x):
        gate = torch.sigmoid(self.t(x))
        return gate * F.relu(self.h(x)) + (1 - gate) * x


class CharCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(len(chars) + 1, 5, padding_idx=0)
        self.convs = nn.ModuleList(nn.Conv1d(5, 4, k) for k in (2, 3))
        self.highway = Highway(8)
        self.out = nn.Linear(8, 2)

    def forward(self, x):
        e = self.emb(x).transpose(1, 2)
        h = torch.cat([F.relu(c(e)).max(dim=2).values for c in self.convs], 1)
        return self.out(self.highway(h))


rng = np.random.default_rng(1021)
model = CharCNN()
with torch.no_grad():
    for n, p in model.named_parameters():
        p.copy_(torch.from_numpy(rng.normal(0, 0.4, tuple(p.shape))))
    model.emb.weight[0].zero_()
with torch.no_grad():
    model.highway.t.bias.fill_(-1.0)
opt = torch.optim.Adam(model.parameters(), lr=0.03)
for it in range(10):
    opt.zero_grad()
    loss = F.cross_entropy(model(ids), plural)
    loss.backward()
    opt.step()
    if it % 3 == 0:
        print(it, f"{loss.item():.6f}", (model(ids).argmax(1) == plural).sum().item())
print(model.emb.weight.grad[0].abs().sum().item(), model.highway.t.bias.detach().numpy().round(4))
with torch.no_grad():
    new = torch.tensor([[c2i[c] for c in "dogs"] + [0] * (L - 4)])
    print(model(new).softmax(1).numpy().round(4))
