# clip_grad_norm_: 2-norm and inf-norm, error_if_nonfinite, foreach, returned total norm
import torch
import torch.nn as nn
from torch.nn.utils import clip_grad_norm_, clip_grad_value_

a = nn.Parameter(torch.tensor([3.0, 4.0]))
b = nn.Parameter(torch.tensor([[1.0, -2.0]]))
a.grad = torch.tensor([3.0, 4.0])
b.grad = torch.tensor([[12.0, 0.0]])
total = clip_grad_norm_([a, b], max_norm=6.5)
print(total, a.grad, b.grad)
a.grad = torch.tensor([3.0, -7.0])
b.grad = torch.tensor([[1.0, 2.0]])
t2 = clip_grad_norm_([a, b], max_norm=1.0, norm_type=float("inf"), foreach=True)
print(t2, a.grad, b.grad)
a.grad = torch.tensor([float("nan"), 1.0])
try:
    clip_grad_norm_([a, b], 1.0, error_if_nonfinite=True)
except RuntimeError as e:
    print(str(e)[:110])
print(clip_grad_norm_([a, b], 1.0))
c = nn.Parameter(torch.ones(3))
print(clip_grad_norm_([c], 1.0), c.grad)
c.grad = torch.tensor([0.5, -3.0, 2.0])
clip_grad_value_(c, 1.0)
print(c.grad)
d = nn.Parameter(torch.ones(2))
d.grad = torch.tensor([3.0, 4.0])
print(clip_grad_norm_(d, 10.0), d.grad, clip_grad_norm_(d, 1.0, norm_type=1.0), d.grad)
