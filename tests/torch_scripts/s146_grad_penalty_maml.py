import torch
import torch.nn as nn
from torch.func import functional_call

critic = nn.Sequential(nn.Linear(2, 8), nn.LeakyReLU(0.2), nn.Linear(8, 8), nn.Softplus(), nn.Linear(8, 1))
with torch.no_grad():
    for i, p in enumerate(critic.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float64) * (i + 1)).reshape(p.shape) * 0.5)
real = torch.tensor([[1.0, 2.0], [0.5, -1.0], [0.0, 0.3]])
fake = torch.tensor([[0.2, 0.1], [1.5, 0.5], [-1.0, 0.0]])
alpha = torch.tensor([[0.3], [0.6], [0.9]])
interp = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
d = critic(interp)
(g,) = torch.autograd.grad(d, interp, grad_outputs=torch.ones_like(d), create_graph=True, retain_graph=True)
gp = ((g.norm(2, dim=1) - 1) ** 2).mean()
loss = critic(fake).mean() - critic(real).mean() + 10 * gp
loss.backward()
print(g, gp, loss)
print([round(p.grad.norm().item(), 10) for p in critic.parameters()])
# MAML: one inner SGD step with create_graph, then the outer gradient
model = nn.Sequential(nn.Linear(1, 16), nn.Tanh(), nn.Linear(16, 1))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float64) + i).reshape(p.shape) * 0.4)
xs = torch.linspace(-2, 2, 8).unsqueeze(1)
tasks = [(1.0, 0.0), (0.5, 1.0)]
meta_opt = torch.optim.SGD(model.parameters(), lr=0.01)
for it in range(3):
    meta_opt.zero_grad()
    outer = 0.0
    for amp, phase in tasks:
        ys = amp * torch.sin(xs + phase)
        params = dict(model.named_parameters())
        inner = ((functional_call(model, params, (xs,)) - ys) ** 2).mean()
        grads = torch.autograd.grad(inner, list(params.values()), create_graph=True)
        fast = {k: v - 0.1 * g for (k, v), g in zip(params.items(), grads)}
        outer = outer + ((functional_call(model, fast, (xs,)) - ys) ** 2).mean()
    outer.backward()
    meta_opt.step()
    print(it, f"{outer.item():.10f}", f"{model[0].weight.grad.norm().item():.10f}")
