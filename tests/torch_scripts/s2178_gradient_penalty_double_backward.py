import torch
import torch.nn as nn

critic = nn.Sequential(nn.Linear(2, 8), nn.Softplus(), nn.Linear(8, 1))
with torch.no_grad():
    for i, p in enumerate(critic.parameters()):
        p.copy_(0.4 * torch.sin(torch.arange(p.numel(), dtype=torch.float64) + 2 * i).view_as(p))
real = torch.tensor([[1.0, 0.5], [0.0, 1.0], [-1.0, 0.2]])
fake = torch.tensor([[0.2, -0.5], [0.5, 0.5], [0.0, 0.0]])
alpha = torch.tensor([[0.3], [0.6], [0.9]])
opt = torch.optim.Adam(critic.parameters(), lr=1e-3, betas=(0.5, 0.9))
for step in range(5):
    interp = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
    out = critic(interp)
    grads, = torch.autograd.grad(out.sum(), interp, create_graph=True)
    gp = ((grads.norm(2, dim=1) - 1) ** 2).mean()
    loss = critic(fake).mean() - critic(real).mean() + 10 * gp
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 5), round(gp.item(), 5))
print(critic[0].weight.grad.abs().sum().round(decimals=4))
