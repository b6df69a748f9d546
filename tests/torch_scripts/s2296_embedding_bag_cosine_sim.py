import torch
import torch.nn as nn
import torch.nn.functional as F

emb = nn.Embedding(6, 3, padding_idx=0)
with torch.no_grad():
    emb.weight.copy_(torch.arange(18.0).view(6, 3) / 10)
    emb.weight[0].zero_()
ids = torch.tensor([[1, 2, 0], [3, 0, 0]])
e = emb(ids)
print(e.shape, e[1])
mask = (ids != 0).unsqueeze(-1).float()
mean = (e * mask).sum(1) / mask.sum(1)
print(mean)
bag = nn.EmbeddingBag(6, 3, mode="mean")
with torch.no_grad():
    bag.weight.copy_(emb.weight)
print(bag(torch.tensor([1, 2, 3]), torch.tensor([0, 2])))
mean.sum().backward()
print(emb.weight.grad)
a = torch.tensor([[1.0, 0.0, 1.0], [0.5, 0.5, 0.0]])
b = torch.tensor([[1.0, 1.0, 1.0]])
print(F.cosine_similarity(a, b), F.pairwise_distance(a, b), torch.cdist(a, b))
print(F.normalize(a, dim=1), torch.nn.CosineSimilarity(dim=0)(a[0], a[1]))
print(emb.weight.requires_grad, nn.Embedding.from_pretrained(emb.weight).weight.requires_grad)
fz = nn.Embedding.from_pretrained(torch.eye(3), freeze=False)
print(fz(torch.tensor([2, 0])), fz.weight.requires_grad)
