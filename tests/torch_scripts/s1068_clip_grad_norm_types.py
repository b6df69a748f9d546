# clip_grad_norm_ with norm types, error_if_nonfinite, clip_grad_value_, foreach
import torch
import torch.nn as nn
from torch.nn.utils import clip_grad_norm_, clip_grad_value_

m = nn.Linear(3, 2)
def set_grads():
    m.weight.grad = torch.tensor([[3.0, -4.0, 0.0], [1.0, 2.0, -2.0]])
    m.bias.grad = torch.tensor([0.5, -6.0])
set_grads()
print(clip_grad_norm_(m.parameters(), max_norm=1.0))
print(m.weight.grad, m.bias.grad)
set_grads()
print(clip_grad_norm_(m.parameters(), max_norm=2.0, norm_type="inf"))
print(m.bias.grad)
set_grads()
print(clip_grad_norm_(m.parameters(), 5.0, norm_type=1))
set_grads()
clip_grad_value_(m.parameters(), clip_value=1.5)
print(m.weight.grad)
m.weight.grad[0, 0] = float("nan")
try:
    clip_grad_norm_(m.parameters(), 1.0, error_if_nonfinite=True)
except RuntimeError as e:
    print("RuntimeError:", str(e)[:60])
print(clip_grad_norm_([], 1.0))
