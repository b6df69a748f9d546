import torch
import torch.nn as nn
from torch.nn.utils import clip_grad_norm_, clip_grad_value_, parameters_to_vector, vector_to_parameters

a = nn.Parameter(torch.tensor([3.0, 4.0]))
b = nn.Parameter(torch.tensor([[1.0, 2.0], [2.0, 1.0]]))
def set_grads():
    a.grad = torch.tensor([3.0, 4.0])
    b.grad = torch.tensor([[0.0, 12.0], [0.0, 0.0]])
set_grads()
n = clip_grad_norm_([a, b], max_norm=6.5, foreach=True)
print(n, a.grad, b.grad)
set_grads()
n = clip_grad_norm_([a, b], max_norm=6.5, foreach=False)
print(n, a.grad.round(decimals=6))
set_grads()
n = clip_grad_norm_([a, b], max_norm=1.0, norm_type=float("inf"))
print(n, a.grad, b.grad)
set_grads()
n = clip_grad_norm_([a, b], max_norm=100.0, norm_type=1)
print(n, a.grad)
set_grads()
b.grad[0, 0] = float("nan")
try:
    clip_grad_norm_([a, b], 1.0, error_if_nonfinite=True)
except RuntimeError as e:
    print("RuntimeError", "non-finite" in str(e))
n = clip_grad_norm_([a, b], 1.0, error_if_nonfinite=False)
print(n, a.grad)
set_grads()
clip_grad_value_([a, b], clip_value=3.5)
print(a.grad, b.grad)
v = parameters_to_vector([a, b])
print(v, v.shape)
vector_to_parameters(torch.arange(6.0), [a, b])
print(a.data, b.data)
print(clip_grad_norm_([], 1.0))
