import torch
import torch.nn as nn
from torch import autograd


class Critic(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(3, 5), nn.LeakyReLU(0.2), nn.Linear(5, 1))
        for m in self.modules():
            if isinstance(m, nn.Linear):
                with torch.no_grad():
                    m.weight.copy_(torch.cos(torch.arange(m.weight.numel(), dtype=torch.float64)).view_as(m.weight) * 0.5)
                    nn.init.constant_(m.bias, 0.05)

    def forward(self, x):
        return self.net(x)


def gradient_penalty(critic, real, fake, eps):
    eps = eps.expand_as(real)
    mixed = eps * real + (1 - eps) * fake
    mixed.requires_grad_(True)
    score = critic(mixed)
    grad, = autograd.grad(outputs=score, inputs=mixed, grad_outputs=torch.ones_like(score),
                          create_graph=True, retain_graph=True)
    grad = grad.view(grad.shape[0], -1)
    return ((grad.norm(2, dim=1) - 1) ** 2).mean(), grad


critic = Critic()
real = torch.tensor([[1.0, 0.5, -0.2], [0.3, -1.0, 2.0], [0.0, 0.1, 0.2], [-1.0, 1.0, 0.4]])
fake = torch.tensor([[0.2, 0.1, 0.0], [0.5, 0.5, 0.5], [-0.3, 0.2, 1.0], [1.0, -1.0, 0.0]])
eps = torch.tensor([0.1, 0.4, 0.6, 0.9]).view(-1, 1)
opt = torch.optim.Adam(critic.parameters(), lr=1e-3, betas=(0.0, 0.9))
for step in range(3):
    opt.zero_grad()
    gp, g = gradient_penalty(critic, real, fake, eps)
    loss = critic(fake).mean() - critic(real).mean() + 10.0 * gp
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 6), round(gp.item(), 6), g.shape)
print(critic.net[0].weight.grad.abs().sum().round(decimals=5))
print(critic.net[2].bias.grad)
