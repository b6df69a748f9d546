import torch
import torch.nn as nn
import torch.nn.functional as F

class FocalLoss(nn.Module):
    def __init__(self, gamma=2.0, alpha=None, reduction="mean"):
        super().__init__()
        self.gamma = gamma
        self.reduction = reduction
        if alpha is not None:
            self.register_buffer("alpha", torch.as_tensor(alpha))
        else:
            self.alpha = None

    def forward(self, logits, target):
        logp = F.log_softmax(logits, dim=-1)
        logpt = logp.gather(1, target.unsqueeze(1)).squeeze(1)
        pt = logpt.exp()
        loss = -((1 - pt) ** self.gamma) * logpt
        if self.alpha is not None:
            loss = loss * self.alpha[target]
        return loss.mean() if self.reduction == "mean" else loss

logits = torch.tensor([[3.0, 0.0, -1.0], [0.2, 0.1, 0.0], [-1.0, 2.0, 4.0]], requires_grad=True)
target = torch.tensor([0, 2, 1])
fl = FocalLoss(gamma=2.0, alpha=[0.25, 0.5, 0.25])
print(fl)
print(list(fl.state_dict().keys()))
loss = fl(logits, target)
loss.backward()
print(loss.detach().round(decimals=6), logits.grad.round(decimals=6))
f0 = FocalLoss(gamma=0.0)(logits, target)
print(torch.allclose(f0, F.cross_entropy(logits, target)))
print(FocalLoss(reduction="none")(logits, target).detach().round(decimals=5))
