# Multi-task learning with homoscedastic uncertainty weighting (Kendall et al.): a shared
# trunk, a regression and a classification head, learned log-variances s_i combining the
# losses as sum(exp(-s_i) * L_i + s_i), trained with Adam and two parameter groups
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

rng = np.random.default_rng(911)
X = torch.from_numpy(rng.standard_normal((48, 5)))
y_reg = X[:, :1] * 2 - X[:, 1:2] + 0.3 * torch.from_numpy(rng.standard_normal((48, 1)))
y_cls = (X[:, 2] + X[:, 3] > 0).long()


class MultiTask(nn.Module):
    def __init__(self):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(5, 16), nn.ReLU(), nn.Linear(16, 16), nn.ReLU())
        self.reg = nn.Linear(16, 1)
        self.cls = nn.Linear(16, 2)
        self.log_vars = nn.Parameter(torch.zeros(2))

    def forward(self, x):
        h = self.trunk(x)
        return self.reg(h), self.cls(h)


model = MultiTask()
with torch.no_grad():
    for n, p in model.named_parameters():
        if n != "log_vars":
            p.copy_(torch.from_numpy(rng.normal(0, 0.3, tuple(p.shape))))
opt = torch.optim.Adam([{"params": [p for n, p in model.named_parameters() if n != "log_vars"]},
                        {"params": [model.log_vars], "lr": 0.05}], lr=0.01)
for it in range(10):
    opt.zero_grad()
    r, c = model(X)
    losses = torch.stack([F.mse_loss(r, y_reg), F.cross_entropy(c, y_cls)])
    total = (torch.exp(-model.log_vars) * losses + model.log_vars).sum()
    total.backward()
    opt.step()
    if it % 3 == 0:
        print(it, f"{total.item():.6f}", losses.detach().numpy().round(5), model.log_vars.detach().numpy().round(5))
print(model.log_vars.grad.numpy().round(6))
with torch.no_grad():
    r, c = model(X)
    print(round(F.mse_loss(r, y_reg).item(), 5), (c.argmax(1) == y_cls).double().mean().item())
