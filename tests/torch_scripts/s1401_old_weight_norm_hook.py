# torch.nn.utils.weight_norm (the hook version): weight_g, weight_v, dim
import warnings
import torch
import torch.nn as nn

warnings.simplefilter("ignore")
lin = nn.Linear(3, 2)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[1.0, 2.0, 2.0], [0.0, 3.0, 4.0]]))
    lin.bias.zero_()
lin = nn.utils.weight_norm(lin, name="weight", dim=0)
print(lin.weight_g.squeeze(), lin.weight_v)
print(sorted(n for n, _ in lin.named_parameters()))
x = torch.tensor([[1.0, 1.0, 1.0]])
lin(x).sum().backward()
print(lin.weight_g.grad.squeeze(), lin.weight_v.grad)
lin = nn.utils.remove_weight_norm(lin)
print(sorted(n for n, _ in lin.named_parameters()), lin.weight)
conv = nn.utils.weight_norm(nn.Conv1d(2, 4, 3), dim=None)
print(conv.weight_g.shape, conv.weight_v.shape)
