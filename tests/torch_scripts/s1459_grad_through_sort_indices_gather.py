# differentiable ranking-style code: gather by argsort, take top half, weighted sum
import torch

scores = torch.tensor([0.3, 1.5, -0.2, 0.9, 0.0, 2.1], requires_grad=True)
order = scores.argsort(descending=True)
top = scores.gather(0, order[:3])
w = torch.tensor([3.0, 2.0, 1.0])
(top * w).sum().backward()
print(order, top, scores.grad)
scores.grad = None
ranks = torch.empty_like(order)
ranks[order] = torch.arange(6)
print(ranks)
soft = torch.softmax(scores / 0.5, 0)
(soft * ranks.double()).sum().backward()
print(scores.grad)
