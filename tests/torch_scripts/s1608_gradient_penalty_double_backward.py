# WGAN-GP style gradient penalty: create_graph, the norm of input gradients, double backward
import torch
import torch.nn as nn

critic = nn.Sequential(nn.Linear(2, 4), nn.Tanh(), nn.Linear(4, 1))
with torch.no_grad():
    for i, p in enumerate(critic.parameters()):
        p.copy_(torch.linspace(-0.6, 0.6, p.numel()).reshape(p.shape) * (1 + i))
real = torch.tensor([[1.0, 2.0], [0.5, -0.5]])
fake = torch.tensor([[0.0, 1.0], [-1.0, 0.0]])
alpha = torch.tensor([[0.3], [0.7]])
mix = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
out = critic(mix)
(g,) = torch.autograd.grad(out.sum(), mix, create_graph=True)
print(g, g.requires_grad, g.grad_fn.name())
gp = ((g.norm(2, dim=1) - 1) ** 2).mean()
loss = critic(fake).mean() - critic(real).mean() + 10 * gp
loss.backward()
print(round(gp.item(), 8), round(loss.item(), 8))
print(critic[0].weight.grad)
print(critic[2].bias.grad, mix.grad)
