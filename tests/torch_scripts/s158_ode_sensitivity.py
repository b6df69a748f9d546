import torch

# logistic growth dx/dt = r x (1 - x / K), Euler vs closed form, and d x(T) / d(r, K)
r = torch.tensor(0.8, requires_grad=True)
K = torch.tensor(10.0, requires_grad=True)
x0 = torch.tensor(0.5)
t = torch.linspace(0, 5, 51)
dt = t[1] - t[0]
x = x0
traj = [x]
for _ in range(50):
    x = x + dt * r * x * (1 - x / K)
    traj.append(x)
traj = torch.stack(traj)
exact = K * x0 * torch.exp(r * t) / (K + x0 * (torch.exp(r * t) - 1))
print(traj[::10].detach(), exact[::10].detach())
print((traj - exact).abs().max().item() < 0.1)
gr, gK = torch.autograd.grad(traj[-1], (r, K), retain_graph=True)
er, eK = torch.autograd.grad(exact[-1], (r, K))
print(f"{gr.item():.8f} {gK.item():.8f} {er.item():.8f} {eK.item():.8f}")
# fit r, K to noisy-free data with Adam, tracking loss
data = exact.detach()
rr = torch.tensor(0.3, requires_grad=True)
KK = torch.tensor(5.0, requires_grad=True)
opt = torch.optim.Adam([rr, KK], lr=0.1)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=40, gamma=0.5)
for it in range(120):
    opt.zero_grad()
    pred = KK * x0 * torch.exp(rr * t) / (KK + x0 * (torch.exp(rr * t) - 1))
    loss = torch.mean((pred - data) ** 2)
    loss.backward()
    opt.step()
    sched.step()
    if it % 20 == 0:
        print(it, f"{loss.item():.10f}", f"{rr.item():.10f}", f"{KK.item():.10f}", sched.get_last_lr())
print(round(rr.item(), 6), round(KK.item(), 6))
J = torch.autograd.functional.jacobian(lambda p: p[1] * x0 * torch.exp(p[0] * t) / (p[1] + x0 * (torch.exp(p[0] * t) - 1)), torch.stack([rr, KK]).detach())
print(J.shape, torch.linalg.svdvals(J), torch.linalg.cond(J.T @ J))
