# A BiLSTM with additive self-attention pooling for sentence classification (Lin et al.
# style): padded batches, attention scores masked by padding with masked_fill, softmax
# weights, weighted sum of hidden states, Embedding.from_pretrained(freeze=False) vectors
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

rng = np.random.default_rng(1181)
V, E, H = 12, 6, 5
pretrained = torch.from_numpy(rng.normal(0, 0.5, (V, E)))
pretrained[0] = 0
sents = [[1, 4, 5, 2], [3, 3, 7, 0], [8, 9, 0, 0], [10, 2, 6, 11], [5, 1, 0, 0], [7, 8, 9, 0]]
X = torch.tensor(sents)
Y = torch.tensor([1, 0, 1, 1, 0, 0])


class AttnBiLSTM(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding.from_pretrained(pretrained, freeze=False, padding_idx=0)
        self.lstm = nn.LSTM(E, H, batch_first=True, bidirectional=True)
        self.att = nn.Sequential(nn.Linear(2 * H, 4), nn.Tanh(), nn.Linear(4, 1, bias=False))
        self.fc = nn.Linear(2 * H, 2)

    def forward(self, x):
        out, _ = self.lstm(self.emb(x))
        scores = self.att(out).squeeze(-1).masked_fill(x == 0, float("-inf"))
        w = F.softmax(scores, dim=1)
        return self.fc((w.unsqueeze(-1) * out).sum(1)), w


model = AttnBiLSTM()
with torch.no_grad():
    for n, q in model.named_parameters():
        if not n.startswith("emb"):
            q.copy_(torch.from_numpy(rng.normal(0, 0.3, tuple(q.shape))))
print(model.emb.weight.requires_grad, model.emb.padding_idx)
opt = torch.optim.Adam(model.parameters(), lr=0.02)
for it in range(8):
    opt.zero_grad()
    logits, w = model(X)
    loss = F.cross_entropy(logits, Y)
    loss.backward()
    opt.step()
    if it % 2 == 1:
        print(it, f"{loss.item():.6f}")
print(w[2].detach().numpy().round(4), model.emb.weight.grad[0].abs().sum().item())
