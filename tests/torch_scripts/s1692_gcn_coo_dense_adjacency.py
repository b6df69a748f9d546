# GCN as in the reference implementation, but with the normalized adjacency built dense
# by index_put_ from COO indices (tapegrad has no sparse layouts: docs/limits.md), mm for
# propagation, dropout off, Adam with weight decay, accuracy on held-out nodes
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

rng = np.random.default_rng(411)
N = 12
edges = [(i, (i + 1) % N) for i in range(N)] + [(0, 6), (3, 9)]
rows, cols = zip(*(edges + [(j, i) for i, j in edges] + [(i, i) for i in range(N)]))
vals = np.ones(len(rows))
deg = np.bincount(rows, minlength=N).astype(float)
vals = vals / np.sqrt(deg[list(rows)] * deg[list(cols)])
adj = torch.zeros(N, N).index_put_((torch.tensor(rows), torch.tensor(cols)),
                                   torch.from_numpy(vals), accumulate=True)
print(adj.is_sparse, int((adj != 0).sum()), adj.shape)
features = torch.from_numpy(rng.standard_normal((N, 5)))
labels = torch.tensor([0] * 6 + [1] * 6)
idx_train = torch.tensor([0, 1, 6, 7])
idx_test = torch.tensor([3, 4, 9, 10])


class GraphConvolution(nn.Module):
    def __init__(self, fin, fout):
        super().__init__()
        self.weight = nn.Parameter(torch.from_numpy(rng.uniform(-0.5, 0.5, (fin, fout))))
        self.bias = nn.Parameter(torch.zeros(fout))

    def forward(self, x, adj):
        support = torch.mm(x, self.weight)
        return torch.mm(adj, support) + self.bias


class GCN(nn.Module):
    def __init__(self):
        super().__init__()
        self.gc1 = GraphConvolution(5, 8)
        self.gc2 = GraphConvolution(8, 2)

    def forward(self, x, adj):
        x = F.relu(self.gc1(x, adj))
        return F.log_softmax(self.gc2(x, adj), dim=1)


model = GCN()
opt = torch.optim.Adam(model.parameters(), lr=0.05, weight_decay=5e-4)
for epoch in range(10):
    model.train()
    opt.zero_grad()
    out = model(features, adj)
    loss = F.nll_loss(out[idx_train], labels[idx_train])
    loss.backward()
    opt.step()
    if epoch % 3 == 0:
        print(epoch, f"{loss.item():.6f}")
model.eval()
out = model(features, adj)
acc = (out[idx_test].argmax(1) == labels[idx_test]).double().mean()
print("test acc", acc.item(), out[:3].detach().exp().numpy().round(4))
print(torch.allclose(adj, adj.T), adj[0, :4].numpy().round(4))
print(model.gc1.weight.grad[:2].numpy().round(6))
