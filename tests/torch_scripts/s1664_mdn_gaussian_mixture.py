# Mixture density network: logits/means/log-stds heads, loss via
# torch.distributions.MixtureSameFamily(Categorical, Normal).log_prob, Adam with
# CosineAnnealingWarmRestarts; mixture mean and variance after training
import numpy as np
import torch
import torch.nn as nn
import torch.distributions as D

rng = np.random.default_rng(151)
x = rng.uniform(-1, 1, (100, 1))
branch = rng.random((100, 1)) < 0.5
y = np.where(branch, np.sin(3 * x), -np.sin(3 * x)) + 0.05 * rng.standard_normal((100, 1))
X, Y = torch.from_numpy(x), torch.from_numpy(y).squeeze(1)


class MDN(nn.Module):
    def __init__(self, k=3, h=16):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(1, h), nn.Tanh())
        self.pi = nn.Linear(h, k)
        self.mu = nn.Linear(h, k)
        self.log_sigma = nn.Linear(h, k)

    def forward(self, x):
        h = self.body(x)
        mix = D.Categorical(logits=self.pi(h))
        comp = D.Normal(self.mu(h), self.log_sigma(h).clamp(-5, 3).exp())
        return D.MixtureSameFamily(mix, comp)


mdn = MDN()
with torch.no_grad():
    for i, p in enumerate(mdn.parameters()):
        p.copy_(torch.from_numpy(np.random.default_rng(300 + i).normal(0, 0.7, tuple(p.shape))))
opt = torch.optim.Adam(mdn.parameters(), lr=0.02)
sched = torch.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=5, T_mult=2)
for it in range(15):
    opt.zero_grad()
    dist = mdn(X)
    nll = -dist.log_prob(Y).mean()
    nll.backward()
    opt.step()
    sched.step()
    if it % 4 == 0:
        print(it, f"{nll.item():.6f}", f"{opt.param_groups[0]['lr']:.6f}")
with torch.no_grad():
    d = mdn(torch.tensor([[-0.5], [0.0], [0.5]]))
    print(d.mean.numpy().round(5), d.variance.numpy().round(5))
    print(d.mixture_distribution.probs.numpy().round(4))
    print(d.batch_shape, d.event_shape, d.component_distribution.batch_shape)
    print(d.cdf(torch.tensor([0.0, 0.0, 0.0])).numpy().round(5))
