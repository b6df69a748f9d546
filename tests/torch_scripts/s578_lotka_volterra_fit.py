import torch


def lv(state, theta):
    x, y = state[..., 0], state[..., 1]
    a, b, c, d = theta
    return torch.stack([a * x - b * x * y, c * x * y - d * y], dim=-1)


def simulate(theta, y0, n, h):
    out = [y0]
    s = y0
    for _ in range(n):
        k1 = lv(s, theta)
        k2 = lv(s + 0.5 * h * k1, theta)
        k3 = lv(s + 0.5 * h * k2, theta)
        k4 = lv(s + h * k3, theta)
        s = s + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        out.append(s)
    return torch.stack(out)


true = torch.tensor([1.0, 0.4, 0.1, 0.4])
y0 = torch.tensor([10.0, 5.0])
obs = simulate(true, y0, 40, 0.1)
print(obs.shape, obs[::10].round(decimals=3))
log_theta = torch.log(torch.tensor([0.8, 0.5, 0.15, 0.3])).requires_grad_()
opt = torch.optim.Adam([log_theta], lr=0.05)
for it in range(120):
    opt.zero_grad()
    pred = simulate(log_theta.exp(), y0, 40, 0.1)
    loss = torch.mean((pred.log() - obs.log()) ** 2)
    loss.backward()
    opt.step()
    if it % 40 == 0:
        print(it, f"{loss.item():.6f}", log_theta.grad.norm().item() > 0)
print(log_theta.exp().detach().round(decimals=3))
sens = torch.autograd.functional.jacobian(lambda th: simulate(th, y0, 10, 0.1)[-1], true)
print(sens.shape, sens.round(decimals=3))
