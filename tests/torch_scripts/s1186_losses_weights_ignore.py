# Loss options: cross_entropy with class weights + ignore_index + label_smoothing, nll_loss weights mean, BCE pos_weight, soft targets
import torch
import torch.nn.functional as F

logits = torch.tensor([[2.0, 0.5, -1.0], [0.1, 0.2, 0.3], [1.0, -1.0, 3.0], [0.0, 0.0, 0.0]], requires_grad=True)
target = torch.tensor([0, 2, -100, 1])
w = torch.tensor([1.0, 2.0, 0.5])
for kw in [{}, {"weight": w}, {"label_smoothing": 0.2}, {"weight": w, "label_smoothing": 0.1}, {"reduction": "sum", "weight": w}, {"reduction": "none"}]:
    print(kw.keys(), F.cross_entropy(logits, target, **kw))
print(F.cross_entropy(logits, torch.tensor([0, 2, 1, 1]), ignore_index=1))
soft = torch.tensor([[0.7, 0.2, 0.1], [0.0, 0.0, 1.0], [0.3, 0.3, 0.4], [0.5, 0.5, 0.0]])
print(F.cross_entropy(logits, soft), F.cross_entropy(logits, soft, label_smoothing=0.1, weight=w))
print(F.nll_loss(F.log_softmax(logits, 1), torch.tensor([0, 2, 1, 1]), weight=w))
y = torch.tensor([[1.0, 0.0], [0.0, 1.0]])
x = torch.tensor([[0.5, -0.5], [1.5, 2.0]], requires_grad=True)
print(F.binary_cross_entropy_with_logits(x, y, pos_weight=torch.tensor([3.0, 0.5])), F.binary_cross_entropy_with_logits(x, y, weight=torch.tensor([1.0, 2.0])))
F.cross_entropy(logits, target, weight=w, label_smoothing=0.1).backward()
print(logits.grad)
