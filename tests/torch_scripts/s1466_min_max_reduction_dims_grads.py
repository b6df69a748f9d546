# amin/amax/min/max over several dims with ties: how the gradient is shared
import torch

x = torch.tensor([[[1.0, 4.0], [4.0, 2.0]], [[0.0, 0.0], [3.0, 1.0]]], requires_grad=True)
x.amax(dim=(1, 2)).sum().backward(); print(x.grad); x.grad = None
x.amin(dim=(0, 2)).sum().backward(); print(x.grad); x.grad = None
x.max(dim=2).values.sum().backward(); print(x.grad); x.grad = None
x.min().backward(); print(x.grad); x.grad = None
torch.aminmax(x.detach(), dim=1)
v = torch.aminmax(x, dim=-1)
(v.min - v.max).sum().backward(); print(v, x.grad)
