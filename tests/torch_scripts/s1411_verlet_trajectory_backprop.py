# backprop through a velocity-Verlet trajectory to the initial velocity (shooting)
import torch

g = 9.81
def simulate(v0, dt=0.01, n=100):
    x = torch.zeros(2)
    v = v0
    a = torch.tensor([0.0, -g])
    for _ in range(n):
        x = x + v * dt + 0.5 * a * dt ** 2
        v = v + a * dt
    return x

v0 = torch.tensor([3.0, 4.0], requires_grad=True)
target = torch.tensor([5.0, 0.0])
opt = torch.optim.SGD([v0], lr=0.1)
for it in range(30):
    opt.zero_grad()
    loss = (simulate(v0) - target).pow(2).sum()
    loss.backward()
    opt.step()
print([round(t, 5) for t in v0.tolist()], round(loss.item(), 8))
