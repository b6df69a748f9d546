# cross_entropy with ignore_index, class weights and label smoothing; gradients
import torch
import torch.nn.functional as F

logits = torch.tensor([[2.0, 0.5, -1.0], [0.1, 0.2, 0.3], [1.0, -1.0, 0.0], [0.0, 0.0, 3.0]], requires_grad=True)
target = torch.tensor([0, -100, 2, 1])
w = torch.tensor([1.0, 2.0, 0.5])
for kw in [{}, {"weight": w}, {"label_smoothing": 0.1}, {"weight": w, "label_smoothing": 0.2}, {"reduction": "sum"}, {"reduction": "none"}]:
    logits.grad = None
    loss = F.cross_entropy(logits, target, **kw)
    loss.sum().backward()
    print(kw.keys(), loss.detach())
    print(logits.grad)
print(F.cross_entropy(logits, torch.tensor([-100, -100, -100, -100])))
