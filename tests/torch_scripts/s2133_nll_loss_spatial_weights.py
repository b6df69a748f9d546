import torch
import torch.nn.functional as F

logp = F.log_softmax(torch.linspace(-2, 2, 2 * 3 * 2 * 2).view(2, 3, 2, 2), dim=1).requires_grad_()
target = torch.tensor([[[0, 1], [2, 1]], [[2, 2], [0, -100]]])
w = torch.tensor([0.2, 1.0, 3.0])
print(F.nll_loss(logp, target).detach().round(decimals=6))
print(F.nll_loss(logp, target, weight=w).detach().round(decimals=6))
none = F.nll_loss(logp, target, weight=w, reduction="none")
print(none.shape, none.detach().round(decimals=4))
s = F.nll_loss(logp, target.clamp(min=0), reduction="sum", ignore_index=2)
s.backward()
print(s.detach().round(decimals=5))
print(logp.grad[0, :, 0, 0], logp.grad.sum())
x = torch.tensor([[-0.5, -1.0, -2.0]])
print(F.nll_loss(x, torch.tensor([1])), F.nll_loss(x.squeeze(0), torch.tensor(2)))
crit = torch.nn.NLLLoss(weight=w, reduction="mean")
print(crit(torch.log(torch.tensor([[0.7, 0.2, 0.1], [0.1, 0.1, 0.8]])), torch.tensor([0, 2])).round(decimals=6))
