# a focal loss written by hand next to cross_entropy with label smoothing; gradients compared
import torch
import torch.nn.functional as F

logits = torch.tensor([[2.0, -1.0, 0.5], [0.0, 0.0, 3.0]], requires_grad=True)
target = torch.tensor([0, 1])
gamma = 2.0
logp = F.log_softmax(logits, 1).gather(1, target[:, None]).squeeze(1)
focal = (-(1 - logp.exp()) ** gamma * logp).mean()
(gf,) = torch.autograd.grad(focal, logits)
ce = F.cross_entropy(logits, target, label_smoothing=0.1)
(gc,) = torch.autograd.grad(ce, logits)
print(round(focal.item(), 8), gf)
print(round(ce.item(), 8), gc)
print(F.binary_cross_entropy_with_logits(logits[:, 0], torch.tensor([1.0, 0.0]), pos_weight=torch.tensor(3.0)))
