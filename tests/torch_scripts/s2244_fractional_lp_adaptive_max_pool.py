import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.tensor([[[[1.0, 5.0, 2.0, 0.0, 3.0],
                    [4.0, 2.0, 8.0, 1.0, 1.0],
                    [0.0, 6.0, 3.0, 7.0, 2.0],
                    [9.0, 1.0, 0.0, 2.0, 5.0],
                    [3.0, 3.0, 4.0, 6.0, 0.0]]]])
samples = torch.tensor([[[0.25, 0.75]]])
fm, idx = F.fractional_max_pool2d(x, kernel_size=2, output_size=(3, 3), return_indices=True, _random_samples=samples)
print(fm, idx)
torch.manual_seed(0)
fr = nn.FractionalMaxPool2d(2, output_ratio=0.5)
print(fr(x).shape)
lp2 = nn.LPPool2d(norm_type=2, kernel_size=2, stride=1)
print(lp2(x).round(decimals=4))
lp1 = nn.LPPool1d(norm_type=1, kernel_size=3, stride=2)
print(lp1(x[0, :, 0]).round(decimals=4), F.avg_pool1d(x[0, :, 0], 3, 2) * 3)
am, ai = nn.AdaptiveMaxPool2d((2, 3), return_indices=True)(x)
print(am, ai)
print(F.adaptive_max_pool1d(x[0, :, 1], 2))
xr = x.clone().requires_grad_()
F.lp_pool2d(xr, 3.0, 2).sum().backward()
print(xr.grad[0, 0].round(decimals=4))
xq = x.clone().requires_grad_()
nn.AdaptiveMaxPool2d(2)(xq).sum().backward()
print(xq.grad[0, 0])
pooled, ind = F.max_pool2d(x, 2, stride=2, return_indices=True)
print(F.max_unpool2d(pooled, ind, 2, output_size=(5, 5)))
