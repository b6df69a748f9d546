# Writing a custom loss as an nn.Module (Dice loss, focal loss), using register_buffer for a
# class-weight tensor, and checking gradients against finite differences via gradcheck
import torch
import torch.nn as nn
import torch.nn.functional as F


class DiceLoss(nn.Module):
    def __init__(self, smooth=1.0):
        super().__init__()
        self.smooth = smooth

    def forward(self, logits, target):
        p = logits.sigmoid()
        inter = (p * target).sum()
        return 1 - (2 * inter + self.smooth) / (p.sum() + target.sum() + self.smooth)

    def extra_repr(self):
        return f"smooth={self.smooth}"


class Focal(nn.Module):
    def __init__(self, gamma=2.0, weights=None):
        super().__init__()
        self.gamma = gamma
        self.register_buffer("weights", weights)

    def forward(self, logits, target):
        logp = F.log_softmax(logits, -1)
        pt = logp.gather(1, target[:, None]).squeeze(1).exp()
        ce = F.nll_loss(logp, target, weight=self.weights, reduction="none")
        return ((1 - pt) ** self.gamma * ce).mean()


dice = DiceLoss(0.5)
x = torch.tensor([[0.5, -1.0], [2.0, 0.1]], requires_grad=True)
t = torch.tensor([[1.0, 0.0], [1.0, 1.0]])
print(dice, dice(x, t))
dice(x, t).backward()
print(x.grad)
foc = Focal(2.0, torch.tensor([1.0, 2.0, 0.5]))
lg = torch.tensor([[1.0, 0.2, -0.5], [0.0, 2.0, 1.0]], requires_grad=True)
print(foc, foc(lg, torch.tensor([0, 2])), list(foc.state_dict().keys()))
print(torch.autograd.gradcheck(lambda z: foc(z, torch.tensor([0, 2])), (lg,)))
print(torch.autograd.gradcheck(lambda z: dice(z, t), (x,)))
