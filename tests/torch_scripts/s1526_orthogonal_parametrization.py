# orthogonal parametrization: weight stays orthogonal after optimizer steps
import torch
import torch.nn as nn
from torch.nn.utils.parametrizations import orthogonal

lin = nn.Linear(3, 3, bias=False)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[1.0, 0.2, 0.0], [0.0, 1.0, 0.3], [0.1, 0.0, 1.0]]))
orthogonal(lin)
W = lin.weight
print(torch.allclose(W @ W.T, torch.eye(3), atol=1e-10))
opt = torch.optim.SGD(lin.parameters(), lr=0.1)
x = torch.linspace(-1, 1, 9).reshape(3, 3)
target = torch.tensor([[0.0, 1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])
for _ in range(5):
    opt.zero_grad()
    loss = (lin(x) - target).pow(2).sum()
    loss.backward()
    opt.step()
W = lin.weight
print(torch.allclose(W @ W.T, torch.eye(3), atol=1e-8), loss.item() > 0)
print(lin.parametrizations.weight[0].orthogonal_map)
lin2 = nn.Linear(4, 2)
orthogonal(lin2, orthogonal_map="cayley")
W2 = lin2.weight
print(W2.shape, torch.allclose(W2 @ W2.T, torch.eye(2), atol=1e-10))
lin3 = nn.Linear(2, 2)
orthogonal(lin3, orthogonal_map="householder")
print(torch.allclose(lin3.weight.T @ lin3.weight, torch.eye(2), atol=1e-10))
