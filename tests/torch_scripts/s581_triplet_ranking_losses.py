import torch
import torch.nn as nn
import torch.nn.functional as F

a = torch.tensor([[1.0, 0.0], [0.0, 1.0], [0.5, 0.5]], requires_grad=True)
p = torch.tensor([[0.9, 0.1], [0.1, 0.8], [0.4, 0.7]])
n = torch.tensor([[0.0, 1.0], [0.2, 0.9], [0.6, 0.4]])
tl = nn.TripletMarginLoss(margin=0.5, p=2)
out = tl(a, p, n)
out.backward()
print(round(out.item(), 6), a.grad)
print(nn.TripletMarginLoss(margin=1.0, p=1, swap=True, reduction="none")(a, p, n))
cos_dist = lambda x, y: 1.0 - F.cosine_similarity(x, y)
tld = nn.TripletMarginWithDistanceLoss(distance_function=cos_dist, margin=0.3, reduction="sum")
print(round(tld(a, p, n).item(), 6))
print(round(nn.TripletMarginWithDistanceLoss()(a, p, n).item(), 6))
ce = nn.CosineEmbeddingLoss(margin=0.2, reduction="none")
print(ce(a, n, torch.tensor([1, -1, -1])))
mr = nn.MarginRankingLoss(margin=0.1)
s1 = torch.tensor([0.8, 0.2, 0.5])
s2 = torch.tensor([0.3, 0.4, 0.5])
print(mr(s1, s2, torch.tensor([1.0, 1.0, -1.0])), F.margin_ranking_loss(s1, s2, torch.tensor([-1.0, 1.0, 1.0]), reduction="sum"))
print(F.triplet_margin_loss(a.detach(), p, n, margin=0.1, eps=0.0))
print(F.cosine_similarity(a.detach(), p, dim=1), F.cosine_similarity(torch.zeros(1, 2), p[:1]))
print(F.pairwise_distance(a.detach(), p, p=1.0, keepdim=True).shape)
emb = F.normalize(torch.tensor([[3.0, 4.0], [1.0, 0.0], [0.0, -2.0]]), dim=1)
sim = emb @ emb.T
print(sim, F.normalize(torch.tensor([0.0, 0.0]), dim=0))
