# Hessians of ELU/SELU/CELU networks at inputs that hit exactly zero
import torch
import torch.nn as nn
from torch.autograd.functional import hessian

x0 = torch.tensor([0.0, 1.0, -1.0])
for act in (nn.ELU(), nn.ELU(alpha=0.5), nn.SELU(), nn.CELU(alpha=2.0)):
    H = hessian(lambda x: act(x).sum() + act(x * 2).pow(2).sum(), x0)
    print(type(act).__name__, torch.diagonal(H))
