# WGAN-GP style gradient penalty: double backward through vector_norm
import torch
import torch.nn as nn

torch.manual_seed(0)
critic = nn.Sequential(nn.Linear(2, 4), nn.Tanh(), nn.Linear(4, 1))
with torch.no_grad():
    critic[0].weight.copy_(torch.tensor([[0.5, -0.3], [0.2, 0.8], [-0.7, 0.1], [0.4, 0.4]]))
    critic[0].bias.copy_(torch.tensor([0.1, -0.1, 0.0, 0.2]))
    critic[2].weight.copy_(torch.tensor([[1.0, -1.0, 0.5, 0.3]]))
    critic[2].bias.fill_(0.0)
x = torch.tensor([[1.0, 2.0], [-0.5, 0.3], [0.0, 0.0]], requires_grad=True)
out = critic(x)
(g,) = torch.autograd.grad(out.sum(), x, create_graph=True)
gnorm = g.norm(2, dim=1)
print(gnorm)
penalty = ((gnorm - 1) ** 2).mean()
penalty.backward()
print(penalty)
print(critic[0].weight.grad)
print(critic[2].weight.grad)
print(x.grad)
