import torch
import torch.nn as nn

logits = torch.tensor([[0.8, -1.2, 0.3, 2.0], [-0.5, 0.4, 1.1, -2.0], [0.0, 0.0, -0.7, 0.9]], requires_grad=True)
targets = torch.tensor([[1.0, 0.0, 1.0, 1.0], [0.0, 1.0, 1.0, 0.0], [0.0, 0.0, 0.0, 1.0]])
print(round(nn.MultiLabelSoftMarginLoss()(logits, targets).item(), 6))
print(nn.MultiLabelSoftMarginLoss(weight=torch.tensor([1.0, 2.0, 1.0, 0.5]), reduction="none")(logits, targets))
bce = nn.BCEWithLogitsLoss(pos_weight=torch.tensor([1.0, 2.0, 3.0, 0.5]))
out = bce(logits, targets)
out.backward()
print(round(out.item(), 6), logits.grad.round(decimals=5))
idx_targets = torch.tensor([[3, 0, -1, 1], [1, 2, -1, 0], [3, -1, 0, 0]])
mlm = nn.MultiLabelMarginLoss(reduction="none")
print(mlm(logits.detach(), idx_targets))
probs = torch.sigmoid(logits.detach())
pred = (probs > 0.5).double()
tp = (pred * targets).sum(0)
prec = tp / pred.sum(0).clamp(min=1)
rec = tp / targets.sum(0).clamp(min=1)
f1 = 2 * prec * rec / (prec + rec).clamp(min=1e-12)
print(prec, rec, f1, f1.mean())
print((pred == targets).all(dim=1).double().mean(), (pred != targets).double().mean())
bw = nn.BCELoss(weight=torch.tensor([[1.0], [0.5], [2.0]]))
print(round(bw(probs, targets).item(), 6))
try:
    nn.BCELoss()(probs, targets[:2])
except ValueError as e:
    print("ValueError", e)
try:
    nn.BCEWithLogitsLoss()(logits, targets[:, :2])
except ValueError as e:
    print("ValueError", e)
