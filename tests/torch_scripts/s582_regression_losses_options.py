import torch
import torch.nn as nn

pred = torch.tensor([0.5, 2.0, -1.0, 3.5], requires_grad=True)
tgt = torch.tensor([1.0, 2.5, 1.0, 0.0])
for L in (nn.L1Loss(), nn.MSELoss(reduction="sum"), nn.SmoothL1Loss(beta=0.5), nn.HuberLoss(delta=2.0),
          nn.HuberLoss(reduction="none", delta=0.5), nn.SmoothL1Loss(beta=0.0)):
    out = L(pred, tgt)
    print(type(L).__name__, out.detach().round(decimals=6))
rate = torch.tensor([1.0, 2.0, 0.5])
counts = torch.tensor([0.0, 3.0, 1.0])
print(nn.PoissonNLLLoss()(rate.log(), counts), nn.PoissonNLLLoss(log_input=False)(rate, counts))
print(nn.PoissonNLLLoss(log_input=False, full=True, reduction="none")(rate, counts))
var = torch.tensor([0.5, 1.0, 2.0, 0.1], requires_grad=True)
g = nn.GaussianNLLLoss()
out = g(pred, tgt, var)
out.backward()
print(round(out.item(), 6), var.grad, pred.grad)
print(nn.GaussianNLLLoss(full=True, eps=1e-3, reduction="sum")(pred.detach(), tgt, torch.tensor(0.5).expand(4)))
print(nn.GaussianNLLLoss()(pred.detach().unsqueeze(1), tgt.unsqueeze(1), torch.ones(4, 1)))
logp = torch.log_softmax(torch.tensor([[1.0, 2.0, 0.5]]), 1)
logq = torch.log_softmax(torch.tensor([[0.3, 0.1, 0.9]]), 1)
print(nn.KLDivLoss(reduction="batchmean")(logp, logq.exp()), nn.KLDivLoss(reduction="batchmean", log_target=True)(logp, logq))
print(nn.KLDivLoss(reduction="none")(logp, logq.exp()))
try:
    nn.GaussianNLLLoss()(pred.detach(), tgt, -torch.ones(4))
except ValueError as e:
    print("ValueError", e)
