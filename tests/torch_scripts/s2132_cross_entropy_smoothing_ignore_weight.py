import torch
import torch.nn as nn
import torch.nn.functional as F

logits = torch.tensor([[2.0, 0.5, -1.0, 0.0], [0.1, 0.2, 0.3, 0.4], [-2.0, 3.0, 0.0, 1.0],
                       [1.0, 1.0, 1.0, 1.0], [0.0, -1.0, 2.0, 0.5]], requires_grad=True)
target = torch.tensor([0, 3, -100, 2, 1])
w = torch.tensor([1.0, 2.0, 0.5, 1.5])
for ls in [0.0, 0.1, 0.3]:
    for red in ["mean", "sum", "none"]:
        out = F.cross_entropy(logits, target, weight=w, label_smoothing=ls, reduction=red)
        print(ls, red, out.detach().round(decimals=5))
crit = nn.CrossEntropyLoss(ignore_index=3, label_smoothing=0.2)
t2 = torch.tensor([0, 3, 1, 2, 1])
loss = crit(logits, t2)
loss.backward()
print(loss.item() == loss.item(), round(loss.item(), 6))
print(logits.grad.round(decimals=5))
probs = torch.softmax(torch.tensor([[1.0, 0.0, 0.0, 0.0], [0.0, 0.0, 2.0, 0.0]]), 1)
soft = F.cross_entropy(logits[:2], probs, label_smoothing=0.1)
print(soft.detach().round(decimals=6))
all_ignored = F.cross_entropy(logits[:2], torch.tensor([-100, -100]))
print(all_ignored)
