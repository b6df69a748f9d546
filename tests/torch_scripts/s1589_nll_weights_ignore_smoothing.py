# classification losses: class weights, ignore_index, label smoothing, probabilities as targets
import torch
import torch.nn as nn
import torch.nn.functional as F

logits = torch.tensor([[2.0, 0.5, -1.0], [0.1, 0.2, 0.3], [-1.0, 3.0, 0.0], [1.0, 1.0, 1.0]],
                      requires_grad=True)
target = torch.tensor([0, 2, -100, 1])
w = torch.tensor([1.0, 2.0, 0.5])
for kw in [{}, {"weight": w}, {"label_smoothing": 0.1}, {"weight": w, "label_smoothing": 0.2},
           {"reduction": "sum"}, {"reduction": "none", "weight": w}]:
    l = F.cross_entropy(logits, target, **kw)
    (g,) = torch.autograd.grad(l.sum(), logits)
    print(kw.keys(), l.detach(), g[0])
probs = torch.tensor([[0.7, 0.2, 0.1], [0.0, 0.5, 0.5], [0.3, 0.3, 0.4], [1.0, 0.0, 0.0]])
print(F.cross_entropy(logits, probs), F.cross_entropy(logits, probs, label_smoothing=0.1))
print(nn.CrossEntropyLoss(ignore_index=2)(logits, torch.tensor([0, 2, 2, 1])))
print(F.nll_loss(logits.log_softmax(1), torch.tensor([0, 1, 2, 0]), weight=w, reduction="mean"))
try:
    F.cross_entropy(logits, torch.tensor([0, 3, 1, 1]))
except (IndexError, RuntimeError) as e:
    print(type(e).__name__, str(e)[:80])
