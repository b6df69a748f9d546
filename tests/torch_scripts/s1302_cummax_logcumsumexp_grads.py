# cummax / cummin values and indices with ties, logcumsumexp, and their gradients
import torch

x = torch.tensor([1.0, 3.0, 2.0, 3.0, 0.5, 4.0], requires_grad=True)
cm = torch.cummax(x, 0)
print(cm.values, cm.indices)
cn = x.cummin(0)
print(cn)
l = torch.logcumsumexp(x, 0)
print(l)
(cm.values.sum() + cn.values.sum() + l.sum()).backward()
print(x.grad)
