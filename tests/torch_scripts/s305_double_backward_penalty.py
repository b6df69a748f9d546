import torch
import torch.nn as nn

# WGAN-GP style gradient penalty with nn layers, then higher order grads of scalar functions
critic = nn.Sequential(nn.Linear(2, 4), nn.Softplus(), nn.Linear(4, 1))
with torch.no_grad():
    for i, p in enumerate(critic.parameters()):
        p.copy_(torch.linspace(-0.5, 0.7, p.numel()).view_as(p) + 0.1 * i)
real = torch.tensor([[1.0, 0.0], [0.5, 0.5]])
fake = torch.tensor([[0.0, 1.0], [-0.5, 0.2]])
alpha = torch.tensor([[0.3], [0.8]])
interp = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
out = critic(interp)
grads = torch.autograd.grad(outputs=out, inputs=interp, grad_outputs=torch.ones_like(out),
                            create_graph=True, retain_graph=True)[0]
gp = ((grads.norm(2, dim=1) - 1) ** 2).mean()
loss = critic(fake).mean() - critic(real).mean() + 10 * gp
loss.backward()
print(round(gp.item(), 6), round(loss.item(), 6))
print([round(p.grad.abs().sum().item(), 6) for p in critic.parameters()])
print(type(grads.grad_fn).__name__, grads.requires_grad)

x = torch.tensor(0.7, requires_grad=True)
y = torch.sin(x) * x ** 2
d1, = torch.autograd.grad(y, x, create_graph=True)
d2, = torch.autograd.grad(d1, x, create_graph=True)
d3, = torch.autograd.grad(d2, x)
print(round(d1.item(), 6), round(d2.item(), 6), round(d3.item(), 6))
# Taylor check
for f in (torch.tanh, torch.sigmoid, torch.erf, torch.sigmoid, torch.nn.functional.softplus,
          torch.nn.functional.silu, torch.nn.functional.elu, torch.log1p, torch.atan):
    z = torch.tensor(0.4, requires_grad=True)
    g1, = torch.autograd.grad(f(z), z, create_graph=True)
    g2, = torch.autograd.grad(g1, z)
    print(f.__name__, round(g1.item(), 6), round(g2.item(), 6))
w = torch.tensor([1.0, 2.0], requires_grad=True)
g, = torch.autograd.grad((w ** 3).sum(), w, create_graph=True)
g.backward(torch.tensor([1.0, 0.5]))
print(w.grad)
try:
    torch.autograd.grad(torch.relu(w).sum(), w)[0].backward()
except RuntimeError as e:
    print("RuntimeError:", e)
