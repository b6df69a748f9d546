# gumbel_softmax: soft samples sum to one, hard ones are one-hot with straight-through grads
import torch
import torch.nn.functional as F

logits = torch.tensor([[1.0, 2.0, 0.5], [0.0, 0.0, 3.0]], requires_grad=True)
soft = F.gumbel_softmax(logits, tau=0.5)
print(soft.shape, soft.sum(-1), soft.grad_fn.name())
hard = F.gumbel_softmax(logits, tau=1.0, hard=True)
print(hard.shape, hard.sum(-1), sorted(set(hard.detach().flatten().tolist())))
print(type(hard.grad_fn).__name__)
(hard * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
print(logits.grad.shape, logits.grad.sum(-1).abs().max() < 1e-12)
col = F.gumbel_softmax(logits.detach(), hard=True, dim=0)
print(col.sum(0))
