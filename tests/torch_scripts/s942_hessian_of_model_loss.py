# full Hessian of a tiny model's loss w.r.t. its flattened parameters (vector_to_parameters trick)
import torch
import torch.nn as nn
from torch.nn.utils import parameters_to_vector

model = nn.Linear(2, 1)
with torch.no_grad():
    model.weight.copy_(torch.tensor([[0.3, -0.2]])); model.bias.fill_(0.1)
x = torch.tensor([[1.0, 2.0], [-1.0, 0.5], [0.0, 1.0]])
y = torch.tensor([[1.0], [0.0], [1.0]])
shapes = [p.shape for p in model.parameters()]

def loss_of(flat):
    w = flat[:2].reshape(shapes[0]); b = flat[2:].reshape(shapes[1])
    return nn.functional.binary_cross_entropy_with_logits(x @ w.T + b, y)

theta = parameters_to_vector(model.parameters()).detach()
H = torch.autograd.functional.hessian(loss_of, theta)
print(H.round(decimals=6), torch.allclose(H, H.T))
ev = torch.linalg.eigvalsh(H)
print(ev.round(decimals=6), bool((ev > 0).all()))
g = torch.autograd.functional.jacobian(loss_of, theta)
print(g.round(decimals=6), (theta - torch.linalg.solve(H, g)).round(decimals=6))
