# gradient accumulation over micro-batches equals one big batch
import torch
import torch.nn as nn

torch.manual_seed(0)
net = nn.Linear(2, 1)
X = torch.tensor([[1.0, 2.0], [3.0, 4.0], [-1.0, 0.5], [2.0, -2.0]])
Y = torch.tensor([[1.0], [2.0], [0.0], [-1.0]])
for i in range(0, 4, 2):
    loss = ((net(X[i:i + 2]) - Y[i:i + 2]) ** 2).mean() / 2
    loss.backward()
acc = [p.grad.clone() for p in net.parameters()]
net.zero_grad()
print([p.grad for p in net.parameters()])
((net(X) - Y) ** 2).mean().backward()
print([torch.allclose(a, p.grad) for a, p in zip(acc, net.parameters())])
net.zero_grad(set_to_none=False)
print([p.grad for p in net.parameters()])
