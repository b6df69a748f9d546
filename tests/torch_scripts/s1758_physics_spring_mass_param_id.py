# System identification of a damped spring-mass system: unknown stiffness and damping as
# nn.Parameters (log-parameterized), a semi-implicit Euler simulator unrolled in a module,
# fitted to noisy observed positions with Adam then refined with LBFGS
import numpy as np
import torch
import torch.nn as nn

rng = np.random.default_rng(1051)
dt, steps = 0.05, 60
k_true, c_true = 4.0, 0.3
x, v = 1.0, 0.0
obs = []
for _ in range(steps):
    a = -k_true * x - c_true * v
    v = v + dt * a
    x = x + dt * v
    obs.append(x)
obs = torch.tensor(obs) + 0.01 * torch.from_numpy(rng.standard_normal(steps))


class Simulator(nn.Module):
    def __init__(self):
        super().__init__()
        self.log_k = nn.Parameter(torch.tensor(0.0))
        self.log_c = nn.Parameter(torch.tensor(-2.0))

    def forward(self, x0=1.0, v0=0.0):
        k, c = self.log_k.exp(), self.log_c.exp()
        x, v = torch.tensor(x0), torch.tensor(v0)
        xs = []
        for _ in range(steps):
            v = v + dt * (-k * x - c * v)
            x = x + dt * v
            xs.append(x)
        return torch.stack(xs)


sim = Simulator()
opt = torch.optim.Adam(sim.parameters(), lr=0.1)
for it in range(15):
    opt.zero_grad()
    loss = ((sim() - obs) ** 2).mean()
    loss.backward()
    opt.step()
    if it % 5 == 4:
        print(it, f"{loss.item():.6f}", f"k {sim.log_k.exp().item():.4f} c {sim.log_c.exp().item():.4f}")
lbfgs = torch.optim.LBFGS(sim.parameters(), lr=1, max_iter=30, line_search_fn="strong_wolfe")


def closure():
    lbfgs.zero_grad()
    l = ((sim() - obs) ** 2).mean()
    l.backward()
    return l


print(f"{lbfgs.step(closure).item():.6f}")
print(f"k {sim.log_k.exp().item():.4f} c {sim.log_c.exp().item():.4f}", f"{((sim() - obs) ** 2).mean().item():.7f}")
