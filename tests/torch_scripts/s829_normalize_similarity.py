# F.normalize variants, cosine_similarity broadcasting and eps, pairwise_distance, cdist
# p-norms, and a cosine similarity matrix computed two ways
import torch
import torch.nn.functional as F

x = torch.tensor([[3.0, 4.0], [0.0, 0.0], [1.0, -1.0]])
print(F.normalize(x), F.normalize(x, p=1), F.normalize(x, dim=0), F.normalize(x, p=float("inf")))
print(F.cosine_similarity(x, torch.tensor([[1.0, 0.0]])), F.cosine_similarity(x[:, None], x[None], dim=-1))
n = F.normalize(x, dim=1)
print(n @ n.T)
print(F.pairwise_distance(x, torch.zeros(3, 2)), F.pairwise_distance(x, x.flip(0), p=1, keepdim=True))
print(torch.cdist(x, x), torch.cdist(x, x, p=1), torch.cdist(x, x, p=float("inf")))
print(F.cosine_similarity(torch.tensor([1.0, 2.0]), torch.tensor([2.0, 4.0]), dim=0), F.cosine_similarity(torch.zeros(2), torch.ones(2), dim=0))
v = torch.tensor([[1.0, 2.0, 2.0]], requires_grad=True)
F.normalize(v).sum().backward()
print(v.grad)
w = torch.tensor([[0.0, 0.0]], requires_grad=True)
F.normalize(w).sum().backward()
print(w.grad)
print(torch.nn.CosineSimilarity(dim=0)(torch.ones(3), torch.arange(3.0)), torch.nn.PairwiseDistance()(torch.ones(1, 2), torch.zeros(1, 2)))
