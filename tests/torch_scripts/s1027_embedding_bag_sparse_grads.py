# EmbeddingBag with offsets and per_sample_weights, Embedding max_norm renorm effect, sparse=True gradient as dense
import torch
import torch.nn as nn

bag = nn.EmbeddingBag(5, 2, mode="sum")
with torch.no_grad():
    bag.weight.copy_(torch.arange(10.0).view(5, 2))
inp = torch.tensor([0, 2, 4, 1, 3])
offsets = torch.tensor([0, 2])
print(bag(inp, offsets))
print(bag(inp, offsets, per_sample_weights=torch.tensor([1.0, 0.5, 2.0, 1.0, -1.0])))
bag.mode = "mean"
print(bag(torch.tensor([[0, 1], [2, 3]])))
mx = nn.EmbeddingBag.from_pretrained(torch.arange(10.0).view(5, 2), mode="max")
print(mx(inp, offsets), mx.weight.requires_grad)
emb = nn.Embedding(4, 3, max_norm=1.0)
with torch.no_grad():
    emb.weight.copy_(torch.tensor([[3.0, 4.0, 0.0], [0.1, 0.0, 0.0], [1.0, 1.0, 1.0], [0.0, 0.0, 2.0]]))
print(emb(torch.tensor([0, 1])).round(decimals=4))
print(emb.weight.round(decimals=4))
sp = nn.Embedding(4, 2, sparse=True)
sp(torch.tensor([1, 1, 3])).sum().backward()
g = sp.weight.grad
print(g.to_dense())
