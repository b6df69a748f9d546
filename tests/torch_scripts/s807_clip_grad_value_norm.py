# Gradient clipping: clip_grad_norm_ returning the total norm, inf norm, error_if_nonfinite,
# clip_grad_value_, and clipping only some parameters
import torch
import torch.nn as nn

lin = nn.Linear(3, 2)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[1.0, -2.0, 3.0], [0.5, 0.5, -1.0]]))
    lin.bias.copy_(torch.tensor([0.1, -0.1]))
x = torch.tensor([[10.0, -5.0, 2.0], [1.0, 1.0, 1.0]])
(lin(x) ** 2).sum().backward()
print(lin.weight.grad, lin.bias.grad)
total = nn.utils.clip_grad_norm_(lin.parameters(), max_norm=1.0)
print(total, torch.cat([p.grad.flatten() for p in lin.parameters()]).norm())
(lin(x) ** 2).sum().backward()
print(nn.utils.clip_grad_norm_(lin.parameters(), 0.5, norm_type="inf"), lin.weight.grad.abs().max())
lin.zero_grad()
(lin(x) ** 2).sum().backward()
nn.utils.clip_grad_value_(lin.parameters(), clip_value=3.0)
print(lin.weight.grad, lin.bias.grad)
lin.zero_grad()
(lin(x) ** 2).sum().backward()
print(nn.utils.clip_grad_norm_([lin.bias], 1.0), lin.bias.grad.norm(), lin.weight.grad.norm() > 1)
lin.weight.grad[0, 0] = float("inf")
try:
    nn.utils.clip_grad_norm_(lin.parameters(), 1.0, error_if_nonfinite=True)
except RuntimeError as e:
    print(str(e)[:60])
print(nn.utils.clip_grad_norm_(lin.parameters(), 1.0))
print(nn.utils.clip_grad_norm_([], 1.0))
p = nn.Parameter(torch.ones(2))
print(nn.utils.clip_grad_norm_([p], 1.0))
