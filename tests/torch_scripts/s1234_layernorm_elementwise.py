# LayerNorm over last two dims, elementwise_affine False, bias False, grads
import torch
import torch.nn as nn

x = torch.tensor([[[1.0, 2.0], [3.0, 5.0]], [[0.0, 0.0], [1.0, -1.0]]], requires_grad=True)
ln = nn.LayerNorm([2, 2])
y = ln(x)
print(y)
(y[:, 0] * 2).sum().backward()
print(x.grad)
print(ln.weight.grad)
print(nn.LayerNorm(4, elementwise_affine=False), nn.LayerNorm(4, bias=False))
print([n for n, _ in nn.LayerNorm(4, bias=False).named_parameters()])
