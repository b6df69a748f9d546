# orthogonal parametrization keeps W^T W = I through an optimizer step
import torch
import torch.nn as nn
from torch.nn.utils.parametrizations import orthogonal

lin = nn.Linear(3, 3, bias=False)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[1.0, 0.2, 0.0], [0.1, 1.0, 0.3], [0.0, -0.2, 1.0]]))
orthogonal(lin)
W = lin.weight
print(torch.allclose(W.T @ W, torch.eye(3), atol=1e-10))
opt = torch.optim.SGD(lin.parameters(), lr=0.1)
x = torch.tensor([[1.0, 2.0, 3.0]])
for _ in range(3):
    opt.zero_grad()
    (lin(x) - torch.tensor([[3.0, 2.0, 1.0]])).pow(2).sum().backward()
    opt.step()
W = lin.weight
print(torch.allclose(W.T @ W, torch.eye(3), atol=1e-10), W.shape)
