import torch
import torch.nn as nn

torch.manual_seed(0)
asm = nn.AdaptiveLogSoftmaxWithLoss(in_features=4, n_classes=10, cutoffs=[3, 6], div_value=2.0)
with torch.no_grad():
    for i, p in enumerate(asm.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=p.dtype) + i).reshape(p.shape) * 0.5)
print(asm)
x = torch.cos(torch.arange(20.0)).reshape(5, 4).requires_grad_()
target = torch.tensor([0, 4, 9, 2, 7])
out = asm(x, target)
print(out.output.detach().round(decimals=5), round(out.loss.item(), 5))
out.loss.backward()
print(x.grad.round(decimals=5))
lp = asm.log_prob(x.detach())
print(lp.shape, lp.exp().sum(1).round(decimals=6))
print(asm.predict(x.detach()))
