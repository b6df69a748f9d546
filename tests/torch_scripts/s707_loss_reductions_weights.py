import torch
import torch.nn as nn
import torch.nn.functional as F

logits = torch.tensor([[2.0, 0.5, -1.0], [0.1, 0.2, 0.3], [-0.5, 1.5, 0.0], [1.0, 1.0, 1.0]], requires_grad=True)
tgt = torch.tensor([0, 2, 1, -100])
w = torch.tensor([1.0, 2.0, 0.5])
for kw in [{}, {"weight": w}, {"ignore_index": -100}, {"weight": w, "ignore_index": -100, "reduction": "sum"}, {"label_smoothing": 0.2, "ignore_index": -100}, {"weight": w, "label_smoothing": 0.1, "ignore_index": -100, "reduction": "none"}]:
    t = tgt if "ignore_index" in kw else tgt.clamp(min=0)
    print(kw.keys(), F.cross_entropy(logits, t, **kw).detach().round(decimals=6))
loss = F.cross_entropy(logits, tgt, weight=w, ignore_index=-100, label_smoothing=0.1)
loss.backward()
print(logits.grad.round(decimals=6))
img = torch.sin(torch.arange(2 * 3 * 2 * 2, dtype=torch.float64)).reshape(2, 3, 2, 2)
lab = torch.tensor([[[0, 1], [2, 1]], [[1, 1], [0, 2]]])
print(F.cross_entropy(img, lab).round(decimals=6), F.nll_loss(F.log_softmax(img, 1), lab, reduction="sum").round(decimals=6))
probs = torch.softmax(torch.cos(torch.arange(12.0)).reshape(4, 3), 1)
print(F.cross_entropy(logits.detach(), probs).round(decimals=6))
print(nn.BCELoss(weight=torch.tensor([1.0, 2.0]))(torch.tensor([[0.2, 0.7], [0.9, 0.1]]), torch.tensor([[0.0, 1.0], [1.0, 0.0]])).round(decimals=6))
print(F.binary_cross_entropy_with_logits(torch.tensor([0.5, -1.0]), torch.tensor([1.0, 0.0]), reduction="none").round(decimals=6))
print(F.l1_loss(torch.tensor([1.0, 2.0]), torch.tensor([0.0, 4.0]), reduction="none"), F.mse_loss(torch.tensor([1.0, 2.0]), torch.tensor([0.0, 4.0]), reduction="sum"))
print(F.smooth_l1_loss(torch.tensor([0.3, 3.0]), torch.zeros(2), beta=0.0), F.huber_loss(torch.tensor([0.3, 3.0]), torch.zeros(2), reduction="none", delta=2.0))
print(F.soft_margin_loss(torch.tensor([0.5, -0.5]), torch.tensor([1.0, 1.0])).round(decimals=6))
print(F.poisson_nll_loss(torch.tensor([0.5, 1.0]), torch.tensor([1.0, 2.0]), log_input=True, reduction="none").round(decimals=6))
