# Cox proportional hazards (DeepSurv-style): risk scores from an MLP, negative partial
# log-likelihood with samples sorted by descending time and torch.logcumsumexp, censoring
# mask; concordance index computed with broadcasting
import numpy as np
import torch
import torch.nn as nn

rng = np.random.default_rng(641)
N = 40
X = torch.from_numpy(rng.standard_normal((N, 4)))
risk_true = X[:, 0] - 0.5 * X[:, 1]
time = torch.from_numpy(rng.exponential(1.0, N)) * torch.exp(-risk_true)
event = torch.from_numpy(rng.random(N) < 0.7)


def cox_ph_loss(log_h, t, e):
    order = torch.argsort(t, descending=True)
    log_h, e = log_h[order], e[order].double()
    log_cum = torch.logcumsumexp(log_h, dim=0)
    return -((log_h - log_cum) * e).sum() / e.sum()


def c_index(risk, t, e):
    comparable = (t.unsqueeze(1) < t.unsqueeze(0)) & e.unsqueeze(1)
    concordant = (risk.unsqueeze(1) > risk.unsqueeze(0)) & comparable
    ties = (risk.unsqueeze(1) == risk.unsqueeze(0)) & comparable
    return ((concordant.sum() + 0.5 * ties.sum()) / comparable.sum()).item()


net = nn.Sequential(nn.Linear(4, 8), nn.SELU(), nn.Linear(8, 1, bias=False))
with torch.no_grad():
    for p in net.parameters():
        p.copy_(torch.from_numpy(rng.normal(0, 0.4, tuple(p.shape))))
opt = torch.optim.Adam(net.parameters(), lr=0.02, weight_decay=1e-3)
for epoch in range(12):
    opt.zero_grad()
    loss = cox_ph_loss(net(X).squeeze(1), time, event)
    loss.backward()
    opt.step()
    if epoch % 4 == 3:
        with torch.no_grad():
            ci = c_index(net(X).squeeze(1), time, event)
        print(epoch, f"{loss.item():.6f}", f"c-index {ci:.4f}")
print("true c-index", round(c_index(risk_true, time, event), 4), int(event.sum()))
print(net[2].weight.grad.numpy().round(6))
x = torch.tensor([0.5, -1.0, 2.0, 0.0], requires_grad=True)
torch.logcumsumexp(x, 0).sum().backward()
print(torch.logcumsumexp(x.detach(), 0).numpy().round(6), x.grad.numpy().round(6))
