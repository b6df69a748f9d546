# cross_entropy: class indices vs probabilities, ignore_index, K-dim inputs, label_smoothing
import torch
import torch.nn.functional as F

logits = torch.tensor([[2.0, 0.5, -1.0], [0.1, 0.2, 0.3], [1.0, 1.0, 1.0]])
t = torch.tensor([0, 2, -100])
print(F.cross_entropy(logits, t).round(decimals=6))
print(F.cross_entropy(logits, t, reduction="none").round(decimals=6))
probs = torch.tensor([[0.7, 0.2, 0.1], [0.0, 0.0, 1.0], [1 / 3, 1 / 3, 1 / 3]])
print(F.cross_entropy(logits, probs).round(decimals=6))
print(F.cross_entropy(logits, torch.tensor([0, 2, 1]), label_smoothing=0.1).round(decimals=6))
img = torch.arange(12.0).reshape(1, 3, 2, 2) / 10
tgt = torch.tensor([[[0, 1], [2, 0]]])
print(F.cross_entropy(img, tgt).round(decimals=6), F.cross_entropy(img, tgt, reduction="none").shape)
print(F.cross_entropy(torch.tensor([1.0, 2.0]), torch.tensor(1)).round(decimals=6))
try:
    F.cross_entropy(logits, torch.tensor([0, 1, 2], dtype=torch.int32))
except RuntimeError as e:
    print(str(e).split(" (")[0])
try:
    F.cross_entropy(logits, torch.tensor([[0, 1, 2]]))
except (RuntimeError, ValueError) as e:
    print(type(e).__name__, str(e).split(" (")[0])
