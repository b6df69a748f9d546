import torch
import torch.nn as nn

x = torch.arange(1.0, 1 + 2 * 6 * 6).reshape(1, 2, 6, 6).requires_grad_()
lp = nn.LPPool2d(norm_type=2, kernel_size=2, stride=2)
y = lp(x)
print(y.shape, y[0, 0].detach().round(decimals=4))
y.sum().backward()
print(x.grad[0, 0, :2].round(decimals=4))
print(nn.LPPool1d(3, kernel_size=3)(torch.arange(1.0, 10).reshape(1, 1, 9)).round(decimals=4))
amp = nn.AdaptiveMaxPool2d((2, 3), return_indices=True)
vals, idx = amp(x.detach())
print(vals[0, 1], idx[0, 1])
unpool = nn.MaxUnpool2d(2)
pool = nn.MaxPool2d(2, return_indices=True)
p, i = pool(x.detach()[:, :1, :4, :4])
print(unpool(p, i))
print(nn.AdaptiveMaxPool1d(2)(torch.tensor([[[1.0, 5.0, 2.0, 4.0, 3.0]]])))
