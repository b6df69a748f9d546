import math
import torch


def f(t, y, k):
    return torch.stack([y[1], -k * y[0] - 0.1 * y[1]])


def rk4(y0, k, dt, n):
    y = y0
    traj = [y]
    for i in range(n):
        t = i * dt
        k1 = f(t, y, k)
        k2 = f(t + dt / 2, y + dt / 2 * k1, k)
        k3 = f(t + dt / 2, y + dt / 2 * k2, k)
        k4 = f(t + dt, y + dt * k3, k)
        y = y + dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        traj.append(y)
    return torch.stack(traj)


k = torch.tensor(2.0, requires_grad=True)
y0 = torch.tensor([1.0, 0.0])
traj = rk4(y0, k, 0.05, 40)
print(traj.shape, traj[-1].detach().numpy().round(8))
target = 0.2
loss = (traj[-1, 0] - target) ** 2
loss.backward()
print(round(loss.item(), 10), round(k.grad.item(), 8))
opt = torch.optim.Adam([k], lr=0.05)
for step in range(30):
    opt.zero_grad()
    loss = (rk4(y0, k, 0.05, 40)[-1, 0] - target) ** 2
    loss.backward()
    opt.step()
print(round(k.item(), 5), loss.item() < 1e-3)
x = torch.linspace(0, 1, 11, requires_grad=True)
u = torch.sin(math.pi * x)
du, = torch.autograd.grad(u.sum(), x, create_graph=True)
d2u, = torch.autograd.grad(du.sum(), x)
print(torch.allclose(d2u, -math.pi ** 2 * torch.sin(math.pi * x.detach())))
n = 6
h = 1.0 / (n + 1)
main = torch.full((n,), 2.0)
off = torch.full((n - 1,), -1.0)
A = (torch.diag(main) + torch.diag(off, 1) + torch.diag(off, -1)) / h ** 2
xs = torch.linspace(h, 1 - h, n)
rhs = math.pi ** 2 * torch.sin(math.pi * xs)
u = torch.linalg.solve(A, rhs)
print((u - torch.sin(math.pi * xs)).abs().max().item() < 0.05, u.numpy().round(5))
masses = torch.tensor([1.0, 2.0])
pos = torch.tensor([[0.0, 0.0], [1.0, 0.0]], requires_grad=True)


def energy(p):
    r = (p[0] - p[1]).norm()
    return -masses[0] * masses[1] / r


E = energy(pos)
forces = -torch.autograd.grad(E, pos)[0]
print(E.item(), forces)
vel = torch.zeros(2, 2)
p = pos.detach().clone()
dt = 0.01
for _ in range(10):
    p.requires_grad_(True)
    F = -torch.autograd.grad(energy(p), p)[0]
    with torch.no_grad():
        vel += dt * F / masses.unsqueeze(1)
        p = p + dt * vel
print(p.numpy().round(6), (vel * masses.unsqueeze(1)).sum(0).abs().max().item() < 1e-12)
t = torch.linspace(0, 2, 201)
y = torch.exp(-t)
print(round(torch.trapezoid(y, t).item(), 6), round(1 - math.exp(-2), 6), torch.cumulative_trapezoid(y, t).shape)
