# BatchNorm: running statistics, momentum=None (cumulative), eval mode, track_running_stats off
import torch
import torch.nn as nn

bn = nn.BatchNorm1d(2, momentum=None)
data = [torch.tensor([[1.0, 2.0], [3.0, 6.0]]), torch.tensor([[5.0, 0.0], [7.0, 4.0]])]
for d in data:
    bn(d)
print(bn.running_mean, bn.running_var, bn.num_batches_tracked)
bn2 = nn.BatchNorm1d(2, momentum=0.5)
for d in data:
    bn2(d)
print(bn2.running_mean, bn2.running_var)
bn2.eval()
x = torch.tensor([[1.0, 1.0]], requires_grad=True)
y = bn2(x)
y.sum().backward()
print(y, x.grad)
bn3 = nn.BatchNorm1d(2, track_running_stats=False, affine=False)
print(bn3(data[0]), bn3.running_mean, bn3)
bn3.eval()
print(bn3(data[0]))
try:
    nn.BatchNorm1d(2)(torch.ones(1, 2))
except ValueError as e:
    print(e)
b2 = nn.BatchNorm2d(1)
z = torch.arange(8.0).reshape(2, 1, 2, 2).requires_grad_()
o = b2(z)
(o * torch.arange(8.0).reshape(2, 1, 2, 2)).sum().backward()
print(o.grad_fn.name(), z.grad.flatten())
