import torch
import torch.nn as nn

edge_index = torch.tensor([[0, 1, 1, 2, 3, 4, 4, 0], [1, 0, 2, 1, 4, 3, 0, 4]])
num_nodes = 5
x = torch.linspace(-1, 1, num_nodes * 3).view(num_nodes, 3)


class GCNLayer(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.lin = nn.Linear(cin, cout, bias=False)
        self.bias = nn.Parameter(torch.zeros(cout))

    def forward(self, x, edge_index):
        src, dst = edge_index
        loops = torch.arange(x.size(0))
        src = torch.cat([src, loops])
        dst = torch.cat([dst, loops])
        deg = torch.zeros(x.size(0)).index_add_(0, dst, torch.ones(dst.size(0)))
        norm = deg[src].rsqrt() * deg[dst].rsqrt()
        h = self.lin(x)
        msg = h[src] * norm.unsqueeze(-1)
        out = torch.zeros(x.size(0), h.size(1)).scatter_add_(0, dst.unsqueeze(-1).expand_as(msg), msg)
        return out + self.bias


layer1, layer2 = GCNLayer(3, 4), GCNLayer(4, 2)
with torch.no_grad():
    layer1.lin.weight.copy_(torch.linspace(-0.5, 0.5, 12).view(4, 3))
    layer2.lin.weight.copy_(torch.linspace(0.3, -0.3, 8).view(2, 4))
h = torch.relu(layer1(x, edge_index))
out = layer2(h, edge_index)
print(out)
target = torch.tensor([0, 1, 0, 1, 1])
loss = nn.functional.cross_entropy(out, target)
loss.backward()
print(round(loss.item(), 6), layer1.lin.weight.grad, layer2.bias.grad)
src, dst = edge_index
vals = x[src, 0]
print(torch.zeros(num_nodes).scatter_reduce(0, dst, vals, reduce="amax", include_self=False))
print(torch.zeros(num_nodes).scatter_reduce(0, dst, vals, reduce="mean", include_self=True))
print(torch.full((num_nodes,), 5.0).scatter_reduce(0, dst, vals, reduce="amin"))
print(torch.ones(num_nodes).scatter_reduce(0, dst, vals + 2, reduce="prod"))
w = torch.linspace(0.1, 0.8, 8, requires_grad=True)
agg = torch.zeros(num_nodes).index_add(0, dst, w * 2, alpha=0.5)
mx = torch.zeros(num_nodes).scatter_reduce(0, dst, w, reduce="amax", include_self=False)
(agg.sum() + (mx * torch.arange(5.0)).sum()).backward()
print(agg, w.grad)
print(torch.bincount(dst, minlength=6), torch.bincount(dst, weights=vals))
