# Mixture model fitting by gradient: mixture log-likelihood with logsumexp, log_softmax weights,
# softplus scales, MixtureSameFamily cross-check, responsibilities by softmax
import math
import torch
import torch.nn.functional as F
from torch.distributions import Normal, Categorical, MixtureSameFamily

data = torch.cat([torch.linspace(-3, -1, 10), torch.linspace(1, 4, 14)])
logits = torch.zeros(2, requires_grad=True)
means = torch.tensor([-0.5, 0.5], requires_grad=True)
raw_scales = torch.zeros(2, requires_grad=True)
opt = torch.optim.Adam([logits, means, raw_scales], lr=0.1)


def log_lik():
    log_w = F.log_softmax(logits, dim=0)
    scales = F.softplus(raw_scales) + 1e-3
    comp = -0.5 * ((data[:, None] - means) / scales) ** 2 - torch.log(scales) - 0.5 * math.log(2 * math.pi)
    return torch.logsumexp(log_w + comp, dim=1).sum()


for step in range(100):
    opt.zero_grad()
    loss = -log_lik()
    loss.backward()
    opt.step()
    if step % 25 == 0:
        print(f"step {step}: nll {loss.item():.5f}")
scales = F.softplus(raw_scales) + 1e-3
mix = MixtureSameFamily(Categorical(logits=logits), Normal(means, scales))
print(torch.allclose(mix.log_prob(data).sum(), log_lik()), means.detach().round(decimals=3))
with torch.no_grad():
    comp_lp = Normal(means, scales).log_prob(data[:, None]) + F.log_softmax(logits, 0)
    resp = torch.softmax(comp_lp, dim=1)
print(resp.sum(0).round(decimals=3), resp.argmax(1).tolist(), F.softmax(logits, 0).detach().round(decimals=4))
print(mix.mean.detach().round(decimals=4), mix.variance.detach().round(decimals=4))
