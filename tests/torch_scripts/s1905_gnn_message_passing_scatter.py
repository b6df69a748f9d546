# A GCN/GIN-style layer written the way PyG tutorials unroll it: edge_index, degrees via
# index_add_, symmetric normalisation, messages scattered with scatter_add_ and
# scatter_reduce_ (amax/mean, include_self False), node classification for a few steps
import torch
import torch.nn as nn
import torch.nn.functional as F

edge_index = torch.tensor([[0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 0, 5],
                           [1, 0, 2, 1, 3, 2, 4, 3, 5, 4, 5, 0]])
N = 6
x = torch.stack([torch.cos(torch.arange(4.0) * (k + 1)) for k in range(N)])
labels = torch.tensor([0, 0, 1, 1, 0, 1])
src, dst = edge_index
deg = torch.zeros(N).index_add_(0, dst, torch.ones(dst.numel()))
print("deg", deg)
norm = (deg[src] * deg[dst]).rsqrt()


class GCN(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin1 = nn.Linear(4, 5, bias=False)
        self.lin2 = nn.Linear(10, 2)

    def forward(self, x):
        h = self.lin1(x)
        msg = h[src] * norm.unsqueeze(1)
        agg = torch.zeros_like(h).scatter_add_(0, dst.unsqueeze(1).expand_as(msg), msg)
        mx = torch.zeros_like(h).scatter_reduce(0, dst.unsqueeze(1).expand_as(msg), h[src],
                                                reduce="amax", include_self=False)
        mean = h.new_zeros(h.shape).scatter_reduce_(0, dst.unsqueeze(1).expand(-1, 5), h[src],
                                                    "mean", include_self=False)
        return self.lin2(torch.cat([F.relu(agg + h), mx - mean], dim=1))


model = GCN()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float64) * 1.3 + i).view_as(p) * 0.5)
opt = torch.optim.Adam(model.parameters(), lr=0.05, weight_decay=1e-3)
for epoch in range(5):
    opt.zero_grad()
    out = model(x)
    loss = F.cross_entropy(out, labels)
    loss.backward()
    opt.step()
    acc = (out.argmax(1) == labels).float().mean()
    print(epoch, f"{loss.item():.6f}", acc.item())
print(model.lin1.weight.grad.norm().item() > 0, out.dtype, acc.dtype)
print(torch.zeros(N).index_add(0, dst, torch.ones(12), alpha=2.0))
