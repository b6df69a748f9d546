# Embedding from_pretrained(freeze, padding_idx) and losses with weight/ignore_index/label_smoothing/reduction
import torch
import torch.nn as nn
import torch.nn.functional as F

emb = nn.Embedding.from_pretrained(torch.arange(12.0).view(4, 3), freeze=False, padding_idx=0)
out = emb(torch.tensor([[0, 2], [3, 0]]))
out.sum().backward()
print(out.shape, emb.weight.grad)
print(nn.Embedding.from_pretrained(torch.ones(2, 2)).weight.requires_grad)
logits = torch.tensor([[2.0, 0.5, -1.0], [0.1, 0.2, 0.3], [1.0, 1.0, 3.0], [0.0, -2.0, 2.0]])
target = torch.tensor([0, 2, -100, 1])
w = torch.tensor([1.0, 2.0, 0.5])
print(F.cross_entropy(logits, target))
print(F.cross_entropy(logits, target, weight=w))
print(F.cross_entropy(logits, target, weight=w, label_smoothing=0.1))
print(F.cross_entropy(logits, target, reduction="none", label_smoothing=0.2))
print(F.cross_entropy(logits, torch.tensor([0, 2, 1, 1]), ignore_index=1, reduction="sum"))
print(F.nll_loss(F.log_softmax(logits, 1), torch.tensor([0, 2, 2, 1]), weight=w, reduction="mean"))
probs = F.softmax(torch.tensor([[1.0, 2.0, 3.0], [0.0, 0.0, 0.0]]), dim=1)
print(F.cross_entropy(logits[:2], probs, label_smoothing=0.1))
print(F.binary_cross_entropy_with_logits(torch.tensor([0.5, -1.0]), torch.tensor([1.0, 0.0]), pos_weight=torch.tensor([3.0, 3.0])))
print(nn.SmoothL1Loss(beta=0.5)(torch.tensor([0.0, 1.0, 3.0]), torch.zeros(3)))
print(nn.HuberLoss(delta=2.0, reduction="none")(torch.tensor([0.0, 1.0, 3.0]), torch.zeros(3)))
print(F.kl_div(torch.tensor([-1.0, -2.0]), torch.tensor([0.3, 0.7]), reduction="batchmean"))
print(F.poisson_nll_loss(torch.tensor([0.5, 1.0]), torch.tensor([1.0, 2.0]), log_input=False, full=True))
print(F.multi_margin_loss(logits, torch.tensor([0, 2, 1, 1]), margin=0.5, p=2))
