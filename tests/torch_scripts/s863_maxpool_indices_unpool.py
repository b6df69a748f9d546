# MaxPool with return_indices and MaxUnpool to invert it, adaptive pools with odd sizes,
# global average pooling by mean vs AdaptiveAvgPool2d(1)
import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.tensor([[[[1.0, 5.0, 2.0, 0.0], [3.0, 4.0, 8.0, 7.0], [0.5, 0.2, 6.0, 1.0], [9.0, 0.1, 0.3, 2.0]]]])
out, idx = F.max_pool2d(x, 2, return_indices=True)
print(out, idx)
print(F.max_unpool2d(out, idx, 2), nn.MaxUnpool2d(2)(out, idx, output_size=x.shape).shape)
o1, i1 = nn.MaxPool1d(2, stride=1, return_indices=True)(torch.tensor([[[1.0, 3.0, 2.0, 5.0]]]))
print(o1, i1, F.max_unpool1d(o1[..., ::2], i1[..., ::2], 2, stride=1, output_size=[4]) if False else None)
print(F.adaptive_avg_pool2d(torch.arange(25.0).view(1, 1, 5, 5), (2, 3)), F.adaptive_max_pool1d(torch.arange(7.0).view(1, 1, 7), 3))
print(torch.allclose(x.mean((2, 3), keepdim=True), nn.AdaptiveAvgPool2d(1)(x)), nn.AdaptiveMaxPool2d((1, 2))(x))
y = x.clone().requires_grad_()
F.max_pool2d(y, 2).sum().backward()
print(y.grad)
