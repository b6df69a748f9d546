# Two-layer graph convolutional network (Kipf & Welling) with a dense normalized
# adjacency D^-1/2 (A+I) D^-1/2, node classification on a ring-of-cliques graph,
# masked train/val split, weight decay on the first layer only
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

n_cl, size = 3, 5
N = n_cl * size
A = torch.zeros(N, N)
for c in range(n_cl):
    idx = torch.arange(c * size, (c + 1) * size)
    A[idx.unsqueeze(1), idx.unsqueeze(0)] = 1.0
    A[c * size, ((c + 1) % n_cl) * size + 1] = A[((c + 1) % n_cl) * size + 1, c * size] = 1.0
A.fill_diagonal_(0)
A_hat = A + torch.eye(N)
deg = A_hat.sum(1)
D_inv_sqrt = torch.diag(deg.pow(-0.5))
A_norm = D_inv_sqrt @ A_hat @ D_inv_sqrt
labels = torch.arange(N) // size
feats = torch.from_numpy(np.random.default_rng(161).standard_normal((N, 4)))
train_mask = torch.zeros(N, dtype=torch.bool)
train_mask[::size] = True
train_mask[1::size] = True


class GCNLayer(nn.Module):
    def __init__(self, i, o):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(i, o))
        self.bias = nn.Parameter(torch.zeros(o))
        with torch.no_grad():
            self.weight.copy_(torch.cos(torch.arange(i * o) * 0.9).view(i, o) * (6 / (i + o)) ** 0.5)

    def forward(self, x, adj):
        return adj @ (x @ self.weight) + self.bias


class GCN(nn.Module):
    def __init__(self):
        super().__init__()
        self.g1 = GCNLayer(4, 8)
        self.g2 = GCNLayer(8, n_cl)

    def forward(self, x, adj):
        return self.g2(F.relu(self.g1(x, adj)), adj)


model = GCN()
opt = torch.optim.Adam([{"params": model.g1.parameters(), "weight_decay": 5e-4},
                        {"params": model.g2.parameters(), "weight_decay": 0.0}], lr=0.05)
for epoch in range(20):
    model.train()
    opt.zero_grad()
    out = model(feats, A_norm)
    loss = F.cross_entropy(out[train_mask], labels[train_mask])
    loss.backward()
    opt.step()
    if epoch % 5 == 4:
        model.eval()
        with torch.no_grad():
            pred = model(feats, A_norm).argmax(1)
            acc = (pred[~train_mask] == labels[~train_mask]).double().mean().item()
        print(f"epoch {epoch} loss {loss.item():.5f} val acc {acc:.3f}")
print(deg.tolist())
print(A_norm[0, :6].numpy().round(4))
print(model(feats, A_norm).softmax(1)[::size].detach().numpy().round(4))
