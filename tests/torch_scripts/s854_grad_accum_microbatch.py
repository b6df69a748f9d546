# Gradient accumulation over micro-batches equals one big batch (loss divided by steps), and
# optimizer steps every k batches
import torch
import torch.nn as nn

def build():
    m = nn.Linear(3, 1)
    with torch.no_grad():
        m.weight.copy_(torch.tensor([[0.1, 0.2, -0.3]]))
        m.bias.zero_()
    return m

X = torch.arange(24.0).view(8, 3) / 10
Y = X.sum(1, keepdim=True) * 0.5 - 1
big = build()
nn.functional.mse_loss(big(X), Y).backward()
acc = build()
k = 4
for xb, yb in zip(X.split(2), Y.split(2)):
    (nn.functional.mse_loss(acc(xb), yb) / k).backward()
print(torch.allclose(big.weight.grad, acc.weight.grad), big.weight.grad, acc.bias.grad)
m = build()
opt = torch.optim.SGD(m.parameters(), lr=0.1)
for i, (xb, yb) in enumerate(zip(X.split(2), Y.split(2))):
    (nn.functional.mse_loss(m(xb), yb) / 2).backward()
    if (i + 1) % 2 == 0:
        opt.step()
        opt.zero_grad()
        print(i, m.weight.data, round(m.bias.item(), 10))
