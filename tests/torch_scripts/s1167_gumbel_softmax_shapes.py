# gumbel_softmax hard and soft: shapes, one-hot rows, sum to one, straight-through gradient exists
import torch
import torch.nn.functional as F

torch.manual_seed(0)
logits = torch.tensor([[1.0, 2.0, 0.5], [0.0, 0.0, 5.0]], requires_grad=True)
soft = F.gumbel_softmax(logits, tau=0.5)
hard = F.gumbel_softmax(logits, tau=1.0, hard=True)
print(soft.shape, torch.allclose(soft.sum(-1), torch.ones(2)), hard.sum(-1), ((hard == 0) | (hard == 1)).all())
(hard * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
print(logits.grad.shape, logits.grad.abs().sum() > 0)
print(F.gumbel_softmax(logits, dim=0, hard=True).sum(0))
