# the messages of common shape mistakes (what forum posts paste)
import torch
import torch.nn as nn
import torch.nn.functional as F


def show(f):
    try:
        f()
        print("ok")
    except Exception as e:
        print(type(e).__name__, "|", str(e)[:60])  # (tapegrad may add context after)


show(lambda: torch.ones(2, 3) @ torch.ones(2, 3))
show(lambda: torch.mm(torch.ones(2, 3), torch.ones(4, 5)))
show(lambda: torch.bmm(torch.ones(2, 2, 3), torch.ones(3, 3, 2)))
show(lambda: torch.ones(2, 3) + torch.ones(3, 2))
show(lambda: torch.cat([torch.ones(2, 3), torch.ones(2, 4)]))
show(lambda: torch.stack([torch.ones(2), torch.ones(3)]))
show(lambda: torch.ones(6).view(4, 2))
show(lambda: torch.ones(2, 3).t().view(6))
show(lambda: torch.ones(2, 3).expand(4, 3))
show(lambda: torch.ones(3)[5])
show(lambda: torch.ones(3, 2).permute(0))
show(lambda: torch.ones(3).squeeze(2))
show(lambda: torch.ones(3).sum(1))
show(lambda: F.cross_entropy(torch.ones(4, 3), torch.tensor([0, 1, 2])))
show(lambda: F.mse_loss(torch.ones(3), torch.ones(3, 1)))
show(lambda: nn.Conv2d(3, 8, 3)(torch.ones(1, 4, 8, 8)))
show(lambda: nn.BatchNorm1d(4)(torch.ones(2, 5)))
show(lambda: nn.Embedding(5, 2)(torch.tensor([5])))
show(lambda: torch.ones(2, 2).gather(1, torch.tensor([[0, 2]])))
show(lambda: torch.ones(2, 3).masked_fill(torch.ones(3, 2, dtype=torch.bool), 0.0))
