import torch
import torch.nn as nn

scores = torch.tensor([[0.1, 0.8, -0.3, 0.4], [1.2, -0.5, 0.3, 0.0], [0.0, 0.0, 2.0, -1.0]],
                      requires_grad=True)
ml_targets = torch.tensor([[1, 3, -1, 0], [0, -1, 2, 2], [2, 1, 0, -1]])
for red in ["none", "mean", "sum"]:
    print("MLM", red, nn.MultiLabelMarginLoss(reduction=red)(scores, ml_targets).detach().round(decimals=5))
nn.MultiLabelMarginLoss()(scores, ml_targets).backward()
print(scores.grad.round(decimals=5))
scores.grad = None
multi_hot = torch.tensor([[0.0, 1.0, 0.0, 1.0], [1.0, 0.0, 1.0, 0.0], [0.0, 0.0, 1.0, 0.0]])
msl = nn.MultiLabelSoftMarginLoss(weight=torch.tensor([1.0, 2.0, 0.5, 1.0]))
l = msl(scores, multi_hot)
l.backward()
print("MLSM", l.item().__round__(6), scores.grad.round(decimals=5))
cls = torch.tensor([1, 0, 2])
for p, margin in [(1, 1.0), (2, 0.5)]:
    mm = nn.MultiMarginLoss(p=p, margin=margin)
    print("MM", p, margin, round(mm(scores, cls).item(), 6))
wmm = nn.MultiMarginLoss(weight=torch.tensor([1.0, 3.0, 0.5, 1.0]), reduction="none")
print(wmm(scores, cls).detach().round(decimals=5))
s1 = torch.tensor([0.2, 0.9, 0.1])
print(nn.MultiMarginLoss()(s1, torch.tensor(1)).round(decimals=5))
print(nn.MultiLabelMarginLoss()(s1, torch.tensor([2, -1, 0])).round(decimals=5))
