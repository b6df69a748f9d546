# nn.utils: clip_grad_norm_ (inf norm, error_if_nonfinite, foreach), clip_grad_value_, vector round trips
import torch
import torch.nn as nn
from torch.nn.utils import clip_grad_norm_, clip_grad_value_, parameters_to_vector, vector_to_parameters

a = nn.Parameter(torch.tensor([3.0, 4.0]))
b = nn.Parameter(torch.tensor([[1.0, -2.0]]))
(a * torch.tensor([1.0, 2.0])).sum().backward()
(b * 6).sum().backward()
print(a.grad, b.grad)
n = clip_grad_norm_([a, b], max_norm=5.0)
print(n, a.grad, b.grad)
n = clip_grad_norm_([a, b], max_norm=1.0, norm_type=float("inf"))
print(n, a.grad.round(decimals=6), b.grad.round(decimals=6))
clip_grad_value_([a, b], clip_value=0.1)
print(a.grad, b.grad)
a.grad[0] = float("nan")
try:
    clip_grad_norm_([a, b], 1.0, error_if_nonfinite=True)
except RuntimeError as e:
    print(str(e).split(".")[0])
print(clip_grad_norm_([a], 1.0))
c = nn.Parameter(torch.ones(3))
print(clip_grad_norm_([c], 1.0))
vec = parameters_to_vector([a, b])
print(vec)
vector_to_parameters(torch.arange(4.0), [a, b])
print(a.data, b.data)
print(nn.utils.get_total_norm([torch.tensor([3.0]), torch.tensor([4.0])]))
