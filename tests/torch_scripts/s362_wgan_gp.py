import torch
import torch.nn as nn

critic = nn.Sequential(nn.Linear(2, 8), nn.LeakyReLU(0.2), nn.Linear(8, 1))
gen = nn.Sequential(nn.Linear(3, 8), nn.ReLU(), nn.Linear(8, 2))
for k, m in enumerate([critic, gen]):
    with torch.no_grad():
        for i, p in enumerate(m.parameters()):
            p.copy_(0.5 * torch.sin(torch.arange(p.numel(), dtype=p.dtype) * 0.9 + i + k).view_as(p))
opt_c = torch.optim.Adam(critic.parameters(), lr=1e-3, betas=(0.0, 0.9))
opt_g = torch.optim.Adam(gen.parameters(), lr=1e-3, betas=(0.0, 0.9))
real = torch.stack([torch.linspace(-1, 1, 6), torch.linspace(1, -1, 6) ** 2], 1)
z = torch.linspace(-1, 1, 18).view(6, 3)
alpha = torch.linspace(0, 1, 6).view(6, 1)


def gradient_penalty(real, fake):
    inter = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
    out = critic(inter)
    grads = torch.autograd.grad(outputs=out, inputs=inter, grad_outputs=torch.ones_like(out), create_graph=True, retain_graph=True, only_inputs=True)[0]
    return ((grads.norm(2, dim=1) - 1) ** 2).mean()


for step in range(4):
    fake = gen(z)
    opt_c.zero_grad()
    gp = gradient_penalty(real, fake.detach())
    loss_c = critic(fake.detach()).mean() - critic(real).mean() + 10 * gp
    loss_c.backward()
    opt_c.step()
    opt_g.zero_grad()
    loss_g = -critic(gen(z)).mean()
    loss_g.backward()
    opt_g.step()
    print(step, f"{loss_c.item():.6f}", f"{gp.item():.6f}", f"{loss_g.item():.6f}")
print(critic[0].weight.grad.abs().sum() > 0, gen[2].bias.grad)
for p in critic.parameters():
    p.data.clamp_(-0.01, 0.01)
print(critic[0].weight.abs().max())
