import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.tensor([[0.1, 0.2, 0.4, 0.8], [1.0, -1.0, 0.5, 0.0]], requires_grad=True)
y = torch.tensor([3, 0])
print(F.multi_margin_loss(x, y).detach().round(decimals=5))
print(F.multi_margin_loss(x, y, p=2, margin=0.5, weight=torch.tensor([1.0, 2.0, 1.0, 1.0])).detach().round(decimals=5))
ml = F.multilabel_margin_loss(x, torch.tensor([[3, 0, -1, 1], [1, 2, -1, 0]]))
print(ml.detach().round(decimals=5))
a = torch.tensor([[1.0, 0.0], [0.0, 1.0]], requires_grad=True)
p = torch.tensor([[0.9, 0.1], [0.1, 0.7]])
n = torch.tensor([[0.0, 1.0], [1.0, 1.0]])
t = F.triplet_margin_loss(a, p, n, margin=1.0, swap=True)
t.backward()
print(t.detach().round(decimals=5), a.grad.round(decimals=5))
print(F.cosine_embedding_loss(a.detach(), n, torch.tensor([1, -1]), margin=0.2).round(decimals=5))
print(F.hinge_embedding_loss(torch.tensor([0.3, 2.0, 0.5]), torch.tensor([1.0, -1.0, -1.0])).round(decimals=5))
print(F.margin_ranking_loss(torch.tensor([1.0, 2.0]), torch.tensor([2.0, 1.0]), torch.tensor([1.0, 1.0]), margin=0.5))
m = nn.MultiLabelSoftMarginLoss()(x, torch.tensor([[0.0, 1.0, 1.0, 0.0], [1.0, 0.0, 0.0, 1.0]]))
print(m.detach().round(decimals=5))
tm = nn.TripletMarginWithDistanceLoss(distance_function=lambda u, v: 1 - F.cosine_similarity(u, v), margin=0.3)
print(tm(a.detach(), p, n).round(decimals=5))
