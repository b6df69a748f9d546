import torch

# Fit the damping of an oscillator by differentiating through a fixed-step RK4 solver.
def rhs(state, k, c):
    x, v = state[..., 0], state[..., 1]
    return torch.stack([v, -k * x - c * v], dim=-1)

def rk4(state, k, c, dt, steps):
    traj = [state]
    for _ in range(steps):
        k1 = rhs(state, k, c)
        k2 = rhs(state + 0.5 * dt * k1, k, c)
        k3 = rhs(state + 0.5 * dt * k2, k, c)
        k4 = rhs(state + dt * k3, k, c)
        state = state + dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        traj.append(state)
    return torch.stack(traj)

y0 = torch.tensor([1.0, 0.0])
with torch.no_grad():
    target = rk4(y0, torch.tensor(4.0), torch.tensor(0.3), 0.1, 20)[:, 0]

c = torch.tensor(0.8, requires_grad=True)
opt = torch.optim.Adam([c], lr=0.05)
for it in range(12):
    opt.zero_grad()
    pred = rk4(y0, torch.tensor(4.0), c, 0.1, 20)[:, 0]
    loss = torch.mean((pred - target) ** 2)
    loss.backward()
    opt.step()
    if it % 4 == 0:
        print(it, f"{loss.item():.6f}", f"{c.item():.4f}", f"{c.grad.item():.5f}")
print("final damping", round(c.item(), 3))
