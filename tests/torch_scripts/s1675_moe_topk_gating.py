# Sparse mixture of experts with top-2 gating: softmax over top-k logits, tokens dispatched
# to experts with index_select / index_add_, load-balancing auxiliary loss
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

rng = np.random.default_rng(251)
D, E, K = 6, 4, 2


class Expert(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1, self.fc2 = nn.Linear(D, 12), nn.Linear(12, D)

    def forward(self, x):
        return self.fc2(F.gelu(self.fc1(x), approximate="tanh"))


class MoE(nn.Module):
    def __init__(self):
        super().__init__()
        self.gate = nn.Linear(D, E, bias=False)
        self.experts = nn.ModuleList(Expert() for _ in range(E))

    def forward(self, x):
        logits = self.gate(x)
        topv, topi = logits.topk(K, dim=-1)
        w = F.softmax(topv, dim=-1)
        out = torch.zeros_like(x)
        for e, expert in enumerate(self.experts):
            rows, slot = torch.nonzero(topi == e, as_tuple=True)
            if rows.numel() == 0:
                continue
            y = expert(x.index_select(0, rows)) * w[rows, slot].unsqueeze(1)
            out.index_add_(0, rows, y)
        probs = F.softmax(logits, -1)
        frac = F.one_hot(topi[:, 0], E).double().mean(0)
        aux = E * (frac * probs.mean(0)).sum()
        return out, aux, topi


moe = MoE()
with torch.no_grad():
    for p in moe.parameters():
        p.copy_(torch.from_numpy(rng.normal(0, 0.5, tuple(p.shape))))
X = torch.from_numpy(rng.standard_normal((20, D)))
Y = torch.from_numpy(np.roll(rng.standard_normal((20, D)), 1, axis=1))
opt = torch.optim.Adam(moe.parameters(), lr=0.01)
for step in range(6):
    opt.zero_grad()
    out, aux, topi = moe(X)
    loss = F.mse_loss(out, Y) + 0.01 * aux
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.6f}", f"{aux.item():.5f}", torch.bincount(topi[:, 0], minlength=E).tolist())
print(moe.gate.weight.grad.numpy().round(5)[:2])
print([round(e.fc2.bias.grad.norm().item(), 6) if e.fc2.bias.grad is not None else None
       for e in moe.experts])
