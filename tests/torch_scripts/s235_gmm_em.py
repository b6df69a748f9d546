import math
import torch

data = torch.cat([torch.linspace(-3, -1, 15), torch.linspace(1.5, 3.5, 25), torch.tensor([0.2, 0.4])])
K = 2
pi = torch.tensor([0.5, 0.5])
mu = torch.tensor([-0.5, 0.5])
var = torch.tensor([1.0, 1.0])
prev = -math.inf
for it in range(100):
    logp = -0.5 * ((data[:, None] - mu) ** 2 / var + torch.log(2 * math.pi * var)) + torch.log(pi)
    ll = torch.logsumexp(logp, dim=1).sum()
    r = torch.softmax(logp, dim=1)
    Nk = r.sum(0)
    pi = Nk / len(data)
    mu = (r * data[:, None]).sum(0) / Nk
    var = (r * (data[:, None] - mu) ** 2).sum(0) / Nk
    if ll - prev < 1e-10:
        break
    prev = ll
print(it, round(ll.item(), 6), pi.round(decimals=4), mu.round(decimals=4), var.round(decimals=4))
print(r.argmax(1).bincount(), r[:3].round(decimals=4))
mix = torch.distributions.MixtureSameFamily(torch.distributions.Categorical(probs=pi), torch.distributions.Normal(mu, var.sqrt()))
print(round(mix.log_prob(data).sum().item(), 6), mix.mean.round(decimals=4), mix.variance.round(decimals=4))
theta = torch.tensor([0.0, -0.5, 0.5, 0.0, 0.0], requires_grad=True)
opt = torch.optim.Adam([theta], lr=0.05)
for _ in range(300):
    w = torch.softmax(torch.stack([theta[0], torch.tensor(0.0)]), 0)
    m = theta[1:3]
    s = theta[3:5].exp()
    nll = -torch.logsumexp(torch.distributions.Normal(m, s).log_prob(data[:, None]) + w.log(), 1).sum()
    opt.zero_grad()
    nll.backward()
    opt.step()
print(round(nll.item(), 3), theta[1:3].detach().sort().values.round(decimals=2))
