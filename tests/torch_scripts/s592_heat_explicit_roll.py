import torch
import torch.nn.functional as F

nx, alpha, dx = 20, 0.01, 1 / 20
dt = 0.4 * dx ** 2 / alpha
x = torch.arange(nx) * dx
u = torch.exp(-100 * (x - 0.5) ** 2)
u0 = u.clone()
mass0 = u.sum().item()
for step in range(100):
    lap = (torch.roll(u, 1) - 2 * u + torch.roll(u, -1)) / dx ** 2
    u = u + alpha * dt * lap
print(round(u.sum().item() - mass0, 10), u.max().round(decimals=5), u.argmax())
kernel = torch.tensor([[[1.0, -2.0, 1.0]]]) / dx ** 2
v = u0.clone()
for step in range(100):
    lap = F.conv1d(F.pad(v.view(1, 1, -1), (1, 1), mode="circular"), kernel).view(-1)
    v = v + alpha * dt * lap
print(torch.allclose(u, v))
w = u0.clone()
for step in range(100):
    lap = torch.zeros_like(w)
    lap[1:-1] = (w[2:] - 2 * w[1:-1] + w[:-2]) / dx ** 2
    w = w + alpha * dt * lap
    w[0] = w[-1] = 0
print(w[::4].round(decimals=5))
print(torch.roll(torch.arange(6).reshape(2, 3), shifts=(1, 1), dims=(0, 1)), torch.roll(torch.arange(4), -1))
D = torch.diag(torch.full((nx,), -2.0)) + torch.diag(torch.ones(nx - 1), 1) + torch.diag(torch.ones(nx - 1), -1)
A = torch.eye(nx) - alpha * dt / dx ** 2 * D
z = u0.clone()
for step in range(10):
    z = torch.linalg.solve(A, z)
print(z.max().round(decimals=5), torch.linalg.matrix_power(A, 2).shape)
print(torch.linalg.eigvalsh(D).min().round(decimals=4), torch.diag_embed(torch.ones(2, 3)).shape)
