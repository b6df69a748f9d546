import torch

# fit a drag coefficient so a projectile lands at a target distance
g = 9.81
v0 = torch.tensor(30.0)
angle = torch.tensor(0.7)
target = torch.tensor(60.0)
k = torch.tensor(0.05, requires_grad=True)

def simulate(k, dt=0.02, steps=300):
    x = torch.zeros(())
    y = torch.zeros(())
    vx = v0 * torch.cos(angle)
    vy = v0 * torch.sin(angle)
    xs = []
    for _ in range(steps):
        speed = torch.sqrt(vx ** 2 + vy ** 2)
        vx = vx - k * speed * vx * dt
        vy = vy - (g + k * speed * vy) * dt
        x = x + vx * dt
        y = y + vy * dt
        xs.append(torch.stack([x, y]))
    return torch.stack(xs)

opt = torch.optim.Adam([k], lr=0.004)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=3, gamma=0.5)
for it in range(8):
    opt.zero_grad()
    traj = simulate(k)
    # landing: last point with y >= 0
    above = traj[:, 1] >= 0
    idx = int(above.nonzero().max())
    land = traj[idx, 0]
    loss = (land - target) ** 2
    loss.backward()
    opt.step()
    sched.step()
    print(it, idx, round(land.item(), 4), round(k.item(), 6), sched.get_last_lr())
print(round(k.grad.item(), 4))
