import torch

n = 50
c = torch.tensor(1.0, requires_grad=True)
x = torch.linspace(0, 1, n)
dx = (x[1] - x[0]).item()
dt = 0.5 * dx
u_prev = torch.sin(torch.pi * x)
u = u_prev.clone()
energies = []
for k in range(40):
    lap = torch.zeros(n)
    lap = torch.cat([lap[:1], u[2:] - 2 * u[1:-1] + u[:-2], lap[:1]])
    u_next = 2 * u - u_prev + (c * dt / dx) ** 2 * lap
    u_prev, u = u, u_next
    if k % 10 == 0:
        vel = (u - u_prev) / dt
        grad_u = torch.diff(u) / dx
        E = 0.5 * (vel ** 2).sum() * dx + 0.5 * c ** 2 * (grad_u ** 2).sum() * dx
        energies.append(round(E.item(), 5))
print(energies)
probe = u[n // 4]
probe.backward()
print(round(probe.item(), 6), round(c.grad.item(), 6))
# d(probe)/dc by central finite differences
with torch.no_grad():
    def run(cv):
        up, uu = torch.sin(torch.pi * x), torch.sin(torch.pi * x)
        for _ in range(40):
            lap = torch.zeros(n)
            lap[1:-1] = uu[2:] - 2 * uu[1:-1] + uu[:-2]
            up, uu = uu, 2 * uu - up + (cv * dt / dx) ** 2 * lap
        return uu[n // 4]
    fd = (run(1.0 + 1e-6) - run(1.0 - 1e-6)) / 2e-6
print(abs(fd.item() - c.grad.item()) < 1e-5)
print(torch.pi, u.shape, u.dtype)
