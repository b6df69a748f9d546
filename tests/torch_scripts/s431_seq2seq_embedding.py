import torch
import torch.nn as nn
import torch.nn.functional as F


class Seq2Seq(nn.Module):
    def __init__(self, V=9, E=4, H=5):
        super().__init__()
        self.emb = nn.Embedding(V, E, padding_idx=0, max_norm=None)
        self.enc = nn.GRU(E, H, batch_first=True)
        self.dec = nn.GRUCell(E, H)
        self.out = nn.Linear(H, V)

    def forward(self, src, tgt):
        _, h = self.enc(self.emb(src))
        h = h[0]
        logits = []
        for t in range(tgt.size(1)):
            h = self.dec(self.emb(tgt[:, t]), h)
            logits.append(self.out(h))
        return torch.stack(logits, 1)


m = Seq2Seq()
with torch.no_grad():
    for i, (n, p) in enumerate(m.named_parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=p.dtype) * 0.77 + i).view_as(p) * 0.3)
src = torch.tensor([[1, 4, 5, 0], [2, 2, 8, 3]])
tgt = torch.tensor([[1, 3, 0], [7, 6, 5]])
opt = torch.optim.Adam(m.parameters(), lr=0.01)
for it in range(3):
    logits = m(src, tgt)
    loss = F.cross_entropy(logits.reshape(-1, 9), tgt.roll(-1, 1).reshape(-1), ignore_index=0, reduction="mean")
    opt.zero_grad()
    loss.backward()
    gn = torch.nn.utils.clip_grad_norm_(m.parameters(), 0.5)
    opt.step()
    print(it, round(loss.item(), 6), round(gn.item(), 6))
print(m.emb.weight.grad[0], logits.argmax(-1))
greedy = logits.softmax(-1).max(-1)
print(greedy.values.round(decimals=4), greedy.indices)
print(F.embedding(torch.tensor([[1, 2]]), m.emb.weight.detach(), max_norm=0.1).norm(dim=-1).round(decimals=4))
