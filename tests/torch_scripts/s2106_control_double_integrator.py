import torch

# Drive a double integrator from rest at 0 to rest at 1 in N steps, penalising effort.
N, dt = 20, 0.1
A = torch.tensor([[1.0, dt], [0.0, 1.0]])
B = torch.tensor([0.5 * dt * dt, dt])
u = torch.zeros(N, requires_grad=True)
goal = torch.tensor([1.0, 0.0])

def rollout(u):
    s = torch.zeros(2)
    for k in range(N):
        s = A @ s + B * u[k]
    return s

opt = torch.optim.SGD([u], lr=0.5, momentum=0.9, nesterov=True)
for it in range(60):
    opt.zero_grad()
    s = rollout(u)
    cost = 100 * ((s - goal) ** 2).sum() + 0.01 * (u ** 2).sum() * dt
    cost.backward()
    opt.step()
    if it % 20 == 0:
        print(it, round(cost.item(), 4))
print(rollout(u).detach().round(decimals=3))
print(u.detach()[:3].round(decimals=3), u.detach()[-3:].round(decimals=3))
print(bool(u.detach()[0] > 0), bool(u.detach()[-1] < 0))
