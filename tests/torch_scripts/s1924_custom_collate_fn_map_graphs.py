# Batching a custom sample type the way torch's collate docs suggest: a small Graph class,
# its own collate function registered in a copy of default_collate_fn_map (node features
# concatenated, edge indices offset, a batch vector), then a mean-pool readout trained
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset
from torch.utils.data._utils.collate import collate, default_collate_fn_map


class Graph:
    def __init__(self, x, edges):
        self.x, self.edges = x, edges


def collate_graphs(batch, *, collate_fn_map=None):
    xs, es, owner, offset = [], [], [], 0
    for k, g in enumerate(batch):
        xs.append(g.x)
        es.append(g.edges + offset)
        owner.append(torch.full((g.x.shape[0],), k))
        offset += g.x.shape[0]
    return {"x": torch.cat(xs), "edges": torch.cat(es, 1), "batch": torch.cat(owner)}


class Graphs(Dataset):
    def __len__(self):
        return 4

    def __getitem__(self, i):
        n = 2 + i % 3
        x = torch.sin(torch.arange(n * 3, dtype=torch.float64) + i).view(n, 3)
        ring = torch.arange(n)
        return {"graph": Graph(x, torch.stack([ring, (ring + 1) % n])), "y": float(i % 2), "id": i}


fns = dict(default_collate_fn_map)
fns[Graph] = collate_graphs
loader = DataLoader(Graphs(), batch_size=2, collate_fn=lambda b: collate(b, collate_fn_map=fns))
lin, head = nn.Linear(3, 4), nn.Linear(4, 1)
with torch.no_grad():
    for i, p in enumerate(list(lin.parameters()) + list(head.parameters())):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float64) + i).view_as(p) * 0.5)
opt = torch.optim.SGD(list(lin.parameters()) + list(head.parameters()), lr=0.2)
for epoch in range(2):
    for b in loader:
        g = b["graph"]
        h = torch.relu(lin(g["x"]))
        msg = torch.zeros_like(h).index_add_(0, g["edges"][1], h[g["edges"][0]])
        counts = torch.bincount(g["batch"]).unsqueeze(1).to(h.dtype)
        pooled = torch.zeros(counts.shape[0], 4).index_add_(0, g["batch"], h + msg) / counts
        loss = nn.functional.binary_cross_entropy_with_logits(head(pooled).squeeze(1), b["y"])
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(epoch, b["id"].tolist(), g["edges"].shape, g["batch"].tolist(), f"{loss.item():.6f}")
