import torch

def simulate(theta, steps=60, dt=0.05):
    a, b, c, d = theta.unbind()
    prey, pred = torch.tensor(1.0), torch.tensor(0.5)
    out = []
    for _ in range(steps):
        dprey = a * prey - b * prey * pred
        dpred = d * prey * pred - c * pred
        prey = prey + dt * dprey
        pred = pred + dt * dpred
        out.append(torch.stack([prey, pred]))
    return torch.stack(out)

true_theta = torch.tensor([1.1, 0.4, 0.4, 0.1])
with torch.no_grad():
    data = simulate(true_theta)
theta = torch.tensor([1.0, 0.5, 0.5, 0.2], requires_grad=True)
opt = torch.optim.Adam([theta], lr=0.02)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=10, gamma=0.5)
for epoch in range(30):
    opt.zero_grad()
    loss = ((simulate(theta) - data) ** 2).mean()
    loss.backward()
    opt.step()
    sched.step()
    if epoch % 10 == 9:
        print(epoch, f"{loss.item():.5f}", theta.detach().round(decimals=3).tolist())
print(data[-1].round(decimals=4), data.shape)
