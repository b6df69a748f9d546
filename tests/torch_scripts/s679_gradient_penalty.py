import torch
import torch.nn as nn

critic = nn.Sequential(nn.Linear(2, 4), nn.Softplus(), nn.Linear(4, 1))
with torch.no_grad():
    for i, p in enumerate(critic.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=p.dtype) + i).reshape(p.shape))
real = torch.tensor([[1.0, 2.0], [0.5, -1.0], [0.0, 0.3]])
fake = torch.tensor([[0.2, 0.1], [1.5, 1.0], [-0.4, 0.9]])
alpha = torch.tensor([[0.3], [0.6], [0.9]])
interp = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
score = critic(interp)
grads = torch.autograd.grad(score, interp, grad_outputs=torch.ones_like(score), create_graph=True, retain_graph=True)[0]
print(grads.detach().round(decimals=5))
gp = ((grads.norm(2, dim=1) - 1) ** 2).mean()
loss = critic(fake).mean() - critic(real).mean() + 10 * gp
loss.backward()
print(round(gp.item(), 6), round(loss.item(), 6))
for n, p in critic.named_parameters():
    print(n, p.grad.flatten().round(decimals=5))
x = torch.tensor(1.5, requires_grad=True)
y = x ** 4
g, = torch.autograd.grad(y, x, create_graph=True)
h, = torch.autograd.grad(g, x, create_graph=True)
t, = torch.autograd.grad(h, x)
print(g.item(), h.item(), t.item())
