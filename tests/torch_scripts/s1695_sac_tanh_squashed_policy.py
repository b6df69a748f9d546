# Soft actor-critic pieces: a tanh-squashed Gaussian policy (rsample with fixed noise and the
# log-prob correction log(1 - tanh^2)), TransformedDistribution(Normal, TanhTransform)
# for comparison, twin Q critics, the entropy temperature alpha learned via log_alpha
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Normal, TransformedDistribution
from torch.distributions.transforms import TanhTransform

rng = np.random.default_rng(431)
S, A = 3, 2
obs = torch.from_numpy(rng.standard_normal((16, S)))
eps = torch.from_numpy(rng.standard_normal((16, A)))
rew = torch.from_numpy(rng.standard_normal(16))


class Actor(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(S, 16), nn.ReLU())
        self.mu = nn.Linear(16, A)
        self.log_std = nn.Linear(16, A)

    def forward(self, s, noise):
        h = self.body(s)
        mu, log_std = self.mu(h), self.log_std(h).clamp(-20, 2)
        std = log_std.exp()
        u = mu + std * noise
        a = torch.tanh(u)
        logp = Normal(mu, std).log_prob(u).sum(-1) - torch.log(1 - a.pow(2) + 1e-6).sum(-1)
        return a, logp, (mu, std, u)


def critic():
    return nn.Sequential(nn.Linear(S + A, 16), nn.ReLU(), nn.Linear(16, 1))


actor, q1, q2 = actor_ = Actor(), critic(), critic()
for m in (actor, q1, q2):
    with torch.no_grad():
        for p in m.parameters():
            p.copy_(torch.from_numpy(rng.normal(0, 0.3, tuple(p.shape))))
log_alpha = torch.zeros(1, requires_grad=True)
a_opt = torch.optim.Adam(actor.parameters(), lr=3e-3)
q_opt = torch.optim.Adam(list(q1.parameters()) + list(q2.parameters()), lr=3e-3)
al_opt = torch.optim.Adam([log_alpha], lr=3e-3)
target_entropy = -A
for step in range(5):
    with torch.no_grad():
        a2, logp2, _ = actor(obs, eps)
        sa2 = torch.cat([obs, a2], 1)
        y = rew + 0.99 * (torch.min(q1(sa2), q2(sa2)).squeeze(1) - log_alpha.exp() * logp2)
    sa = torch.cat([obs, torch.from_numpy(rng.uniform(-1, 1, (16, A)))], 1)
    q_loss = F.mse_loss(q1(sa).squeeze(1), y) + F.mse_loss(q2(sa).squeeze(1), y)
    q_opt.zero_grad(); q_loss.backward(); q_opt.step()
    a, logp, _ = actor(obs, eps)
    sa = torch.cat([obs, a], 1)
    pi_loss = (log_alpha.exp().detach() * logp - torch.min(q1(sa), q2(sa)).squeeze(1)).mean()
    a_opt.zero_grad(); pi_loss.backward(); a_opt.step()
    alpha_loss = -(log_alpha * (logp + target_entropy).detach()).mean()
    al_opt.zero_grad(); alpha_loss.backward(); al_opt.step()
    print(step, f"q {q_loss.item():.5f} pi {pi_loss.item():.5f} alpha {log_alpha.exp().item():.6f}")
with torch.no_grad():
    a, logp, (mu, std, u) = actor(obs[:3], eps[:3])
    td = TransformedDistribution(Normal(mu, std), [TanhTransform(cache_size=1)])
    print(a.numpy().round(5))
    print(logp.numpy().round(4), td.log_prob(a).sum(-1).numpy().round(4))
