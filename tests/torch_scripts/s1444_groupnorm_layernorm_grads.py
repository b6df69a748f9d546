# LayerNorm without affine, GroupNorm, InstanceNorm1d: outputs and input gradients
import torch
import torch.nn as nn

x = torch.tensor([[[1.0, 2.0, 4.0], [0.0, -1.0, 3.0]], [[2.0, 2.0, 2.5], [1.0, 0.0, 1.0]]], requires_grad=True)
w = torch.tensor([[[1.0, -1.0, 0.5], [2.0, 0.0, 1.0]]])
for m in [nn.LayerNorm(3, elementwise_affine=False), nn.LayerNorm([2, 3], bias=False), nn.GroupNorm(1, 2), nn.InstanceNorm1d(2), nn.InstanceNorm1d(2, affine=True)]:
    x.grad = None
    y = m(x)
    (y * w).sum().backward()
    print(type(m).__name__, torch.round(y[1], decimals=5))
    print(torch.round(x.grad[0], decimals=5))
