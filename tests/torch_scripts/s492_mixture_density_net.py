import math
import torch
import torch.nn as nn
from torch.distributions import Categorical, Normal, MixtureSameFamily


class MDN(nn.Module):
    def __init__(self, hidden=8, k=3):
        super().__init__()
        self.k = k
        self.body = nn.Sequential(nn.Linear(1, hidden), nn.Tanh())
        self.pi = nn.Linear(hidden, k)
        self.mu = nn.Linear(hidden, k)
        self.log_sigma = nn.Linear(hidden, k)

    def forward(self, x):
        h = self.body(x)
        return self.pi(h), self.mu(h), self.log_sigma(h).clamp(-5, 3)


def mdn_nll(logits, mu, log_sigma, y):
    log_pi = torch.log_softmax(logits, dim=-1)
    z = (y - mu) / log_sigma.exp()
    log_n = -0.5 * z ** 2 - log_sigma - 0.5 * math.log(2 * math.pi)
    return -torch.logsumexp(log_pi + log_n, dim=-1).mean()


model = MDN()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(0.5 * torch.sin(torch.arange(p.numel(), dtype=p.dtype) * 0.7 + i).view_as(p))
x = torch.linspace(-1, 1, 40).unsqueeze(1)
y = torch.sin(3 * x) + 0.3 * torch.sign(x)
opt = torch.optim.Adam(model.parameters(), lr=0.02)
for step in range(60):
    opt.zero_grad()
    logits, mu, ls = model(x)
    loss = mdn_nll(logits, mu, ls, y)
    loss.backward()
    opt.step()
    if step % 20 == 0:
        print(step, round(loss.item(), 5))
logits, mu, ls = model(x)
mix = MixtureSameFamily(Categorical(logits=logits), Normal(mu, ls.exp()))
lp = mix.log_prob(y.squeeze(1))
print(lp.shape, torch.allclose(-lp.mean(), mdn_nll(logits, mu, ls, y)))
print(mix.batch_shape, mix.event_shape, mix.mean.shape)
print(round(mix.mean[:5].sum().item(), 4), round(mix.variance.mean().item(), 4))
print(mix.sample((2,)).shape)
