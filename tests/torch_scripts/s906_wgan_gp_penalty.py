# WGAN-GP: gradient penalty on interpolates with create_graph=True, then backward to the critic
import torch
import torch.nn as nn

critic = nn.Sequential(nn.Linear(2, 3), nn.Tanh(), nn.Linear(3, 1))
with torch.no_grad():
    for i, p in enumerate(critic.parameters()):
        p.copy_(torch.arange(p.numel(), dtype=torch.float64).reshape(p.shape).sin() * 0.7)
real = torch.tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
fake = torch.tensor([[0.2, 0.3], [-0.5, 0.1], [0.4, -0.2]])
alpha = torch.tensor([[0.25], [0.5], [0.75]])
inter = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
out = critic(inter)
grads = torch.autograd.grad(out, inter, grad_outputs=torch.ones_like(out), create_graph=True, retain_graph=True)[0]
gp = ((grads.norm(2, dim=1) - 1) ** 2).mean()
loss = critic(fake).mean() - critic(real).mean() + 10 * gp
loss.backward()
print(grads.requires_grad, grads.grad_fn is not None, round(gp.item(), 8))
for n, p in critic.named_parameters():
    print(n, p.grad.round(decimals=6).tolist())
print(inter.grad is None)
