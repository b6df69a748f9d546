import torch
import torch.nn as nn
import torch.nn.functional as F

logits = torch.tensor([[2.0, 0.5, -1.0], [0.1, 0.2, 0.3], [-1.0, 3.0, 0.0]], requires_grad=True)
target = torch.tensor([0, 2, 1])
w = torch.tensor([1.0, 2.0, 0.5])
for kw in [{}, {"weight": w}, {"label_smoothing": 0.1}, {"reduction": "sum"}, {"reduction": "none"}, {"ignore_index": 2}, {"weight": w, "label_smoothing": 0.2}]:
    print(kw.keys() and sorted(kw), F.cross_entropy(logits, target, **kw).detach().round(decimals=5))
soft = torch.tensor([[0.7, 0.2, 0.1], [0.0, 0.5, 0.5], [0.1, 0.8, 0.1]])
print(F.cross_entropy(logits, soft).detach().round(decimals=5))
loss = nn.CrossEntropyLoss(weight=w, label_smoothing=0.05)(logits, target)
loss.backward()
print(logits.grad.round(decimals=5))
x = torch.tensor([0.2, 0.8, 0.5])
y = torch.tensor([0.0, 1.0, 1.0])
print(F.binary_cross_entropy(x, y, weight=torch.tensor([1.0, 2.0, 3.0])).round(decimals=5))
print(F.binary_cross_entropy_with_logits(x, y, pos_weight=torch.tensor([2.0, 2.0, 2.0])).round(decimals=5))
print(F.nll_loss(F.log_softmax(logits.detach(), 1), target, reduction="none").round(decimals=5))
print(F.kl_div(F.log_softmax(logits.detach(), 1), soft, reduction="batchmean").round(decimals=5))
print(F.kl_div(F.log_softmax(logits.detach(), 1), soft.log(), reduction="sum", log_target=True).round(decimals=5))
print(F.l1_loss(x, y), F.smooth_l1_loss(x, y, beta=0.5).round(decimals=5), F.huber_loss(x, y, delta=0.3).round(decimals=5))
print(F.margin_ranking_loss(x, y, torch.tensor([1.0, -1.0, 1.0]), margin=0.1).round(decimals=5))
print(F.hinge_embedding_loss(x, torch.tensor([1.0, -1.0, 1.0])).round(decimals=5))
print(F.cosine_embedding_loss(logits.detach(), soft, torch.tensor([1, -1, 1])).round(decimals=5))
print(F.triplet_margin_loss(logits.detach(), soft, soft.flip(0)).round(decimals=5))
print(F.poisson_nll_loss(x, y).round(decimals=5), F.gaussian_nll_loss(x, y, torch.full((3,), 0.5)).round(decimals=5))
print(F.multi_margin_loss(logits.detach(), target).round(decimals=5), F.multilabel_soft_margin_loss(logits.detach(), (soft > 0.3).double()).round(decimals=5))
