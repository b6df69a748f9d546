# Hamiltonian neural network (Greydanus et al.): an MLP H(q, p), time derivatives from its
# gradient via autograd.grad(create_graph=True) with the symplectic swap, trained on a
# pendulum's true derivatives; rolled out with a leapfrog-free RK4 under no graph
import numpy as np
import torch
import torch.nn as nn

rng = np.random.default_rng(731)
qp = rng.uniform(-1.5, 1.5, (64, 2))
dq = qp[:, 1]
dp = -np.sin(qp[:, 0])
X = torch.from_numpy(qp)
dX = torch.from_numpy(np.stack([dq, dp], 1))


class HNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.H = nn.Sequential(nn.Linear(2, 32), nn.Tanh(), nn.Linear(32, 32), nn.Tanh(), nn.Linear(32, 1))

    def forward(self, x):
        x = x if x.requires_grad else x.requires_grad_(True)
        H = self.H(x).sum()
        dH = torch.autograd.grad(H, x, create_graph=True)[0]
        return torch.stack([dH[:, 1], -dH[:, 0]], 1)


model = HNN()
with torch.no_grad():
    for p in model.parameters():
        p.copy_(torch.from_numpy(rng.normal(0, 0.4, tuple(p.shape))))
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
for it in range(15):
    opt.zero_grad()
    loss = (model(X.clone()) - dX).pow(2).mean()
    loss.backward()
    opt.step()
    if it % 5 == 4:
        print(it, f"{loss.item():.7f}")


def rk4_step(f, x, h):
    k1 = f(x)
    k2 = f(x + h / 2 * k1)
    k3 = f(x + h / 2 * k2)
    k4 = f(x + h * k3)
    return x + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)


f = lambda x: model(x.detach().clone()).detach()
x = torch.tensor([[1.0, 0.0]])
energies = []
for _ in range(20):
    x = rk4_step(f, x, 0.1)
    energies.append(model.H(x).item())
print(x.numpy().round(5), round(max(energies) - min(energies), 6))
print(model.H[0].weight.grad[:2].numpy().round(6))
