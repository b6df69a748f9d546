import torch
import torch.nn as nn
import torch.nn.functional as F

bil = nn.Bilinear(2, 3, 2)
prelu = nn.PReLU(num_parameters=2, init=0.2)
with torch.no_grad():
    bil.weight.copy_(torch.arange(12.0).reshape(2, 2, 3) / 12 - 0.3)
    bil.bias.copy_(torch.tensor([0.1, -0.1]))
a = torch.tensor([[1.0, -1.0], [0.5, 2.0]])
b = torch.tensor([[1.0, 0.0, 2.0], [-1.0, 1.0, 0.5]])
opt = torch.optim.Adagrad(list(bil.parameters()) + list(prelu.parameters()), lr=0.2)
for i in range(4):
    opt.zero_grad()
    out = prelu(bil(a, b))
    loss = F.glu(torch.cat([out, out * 2], 1), dim=1).pow(2).sum()
    loss.backward()
    opt.step()
    print(i, round(loss.item(), 5), prelu.weight.detach().round(decimals=5))
print(bil.weight.grad.shape, bil.bias.grad.round(decimals=5))
print(F.glu(torch.tensor([[1.0, 2.0, 0.0, -1.0]])).round(decimals=5))
print(F.bilinear(a, b, bil.weight, None).round(decimals=4))
print(F.prelu(torch.tensor([[-1.0, -2.0], [3.0, -4.0]]), torch.tensor([0.1, 0.5])))
print(F.rrelu(torch.tensor([-1.0, 1.0]), lower=0.1, upper=0.3, training=False))
print(F.celu(torch.tensor([-1.0, 1.0]), alpha=2.0).round(decimals=5), F.selu(torch.tensor([-1.0])).round(decimals=5))
print(F.softsign(torch.tensor([-2.0, 3.0])), F.hardswish(torch.tensor([-4.0, 1.0, 4.0])).round(decimals=5))
print(F.gelu(torch.tensor([-1.0, 1.0])).round(decimals=5), F.gelu(torch.tensor([-1.0, 1.0]), approximate="tanh").round(decimals=5))
print(F.silu(torch.tensor([1.0])).round(decimals=5), F.mish(torch.tensor([1.0])).round(decimals=5), F.logsigmoid(torch.tensor([-50.0])))
print(F.softmin(torch.tensor([1.0, 2.0]), dim=0).round(decimals=5), F.gumbel_softmax(torch.tensor([0.0, 100.0]), tau=0.1, hard=True))
