# zero_grad(set_to_none=True/False) on modules and optimizers; grads accumulate across backward
import torch
import torch.nn as nn

m = nn.Linear(2, 1)
opt = torch.optim.SGD(m.parameters(), lr=0.1)
x = torch.tensor([[1.0, 2.0]])
m(x).sum().backward()
m(x).sum().backward()
print(m.weight.grad, m.bias.grad)
opt.zero_grad(set_to_none=False)
print(m.weight.grad, m.bias.grad)
m(x).sum().backward()
opt.zero_grad()
print(m.weight.grad, m.bias.grad)
m(x).sum().backward()
m.zero_grad(set_to_none=False)
print(m.weight.grad)
m.requires_grad_(False)
print([p.requires_grad for p in m.parameters()], m(x).requires_grad)
