import torch

# Single shooting: steer a damped pendulum to the upright position with a piecewise-constant
# torque, optimising the controls through the unrolled RK4 integrator.
T, N = 2.0, 20
dt = T / N


def dynamics(s, u):
    th, om = s[0], s[1]
    return torch.stack([om, -9.81 * torch.sin(th) - 0.2 * om + u])


def rk4(s, u):
    k1 = dynamics(s, u)
    k2 = dynamics(s + 0.5 * dt * k1, u)
    k3 = dynamics(s + 0.5 * dt * k2, u)
    k4 = dynamics(s + dt * k3, u)
    return s + dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4)


def rollout(u):
    s = torch.tensor([0.0, 0.0])
    traj = [s]
    for i in range(N):
        s = rk4(s, u[i])
        traj.append(s)
    return torch.stack(traj)


def cost(u):
    traj = rollout(u)
    goal = torch.tensor([torch.pi, 0.0])
    return 50 * ((traj[-1] - goal) ** 2).sum() + 1e-3 * (u ** 2).sum() * dt


u = torch.zeros(N, requires_grad=True)
opt = torch.optim.Adam([u], lr=0.5)
for it in range(60):
    opt.zero_grad()
    c = cost(u)
    c.backward()
    opt.step()
    if it % 15 == 0:
        print(it, f"{c.item():.4f}", f"{u.grad.norm().item():.4f}")
traj = rollout(u.detach())
print(traj.shape, f"{cost(u).item():.4f}")
print(round(traj[-1, 0].item(), 3))
# gradient check of the rollout against finite differences on a single control
u0 = torch.linspace(-1, 1, N, dtype=torch.float64)
g = torch.autograd.grad(cost(u0.requires_grad_()), u0)[0]
e = torch.zeros(N, dtype=torch.float64)
e[5] = 1e-6
fd = (cost(u0.detach() + e) - cost(u0.detach() - e)) / 2e-6
print(abs(fd.item() - g[5].item()) < 1e-4 * max(1.0, abs(fd.item())))
