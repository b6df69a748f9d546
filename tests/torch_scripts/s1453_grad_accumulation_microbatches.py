# gradient accumulation over micro-batches equals one full-batch step
import torch
import torch.nn as nn

X = torch.tensor([[1.0, 2.0], [0.0, 1.0], [-1.0, 0.5], [2.0, -1.0]])
Y = torch.tensor([[1.0], [0.0], [-1.0], [2.0]])
def make():
    m = nn.Linear(2, 1)
    with torch.no_grad():
        m.weight.copy_(torch.tensor([[0.3, -0.2]])); m.bias.fill_(0.1)
    return m
full = make()
nn.functional.mse_loss(full(X), Y).backward()
acc = make()
for i in range(0, 4, 2):
    (nn.functional.mse_loss(acc(X[i:i + 2]), Y[i:i + 2]) / 2).backward()
print(full.weight.grad, acc.weight.grad)
print(torch.allclose(full.weight.grad, acc.weight.grad), torch.allclose(full.bias.grad, acc.bias.grad))
