# A mixture density network (Bishop's inverse-sine toy problem) as the blog posts write it:
# a net emitting mixture logits, means and log-scales, MixtureSameFamily(Categorical,
# Normal) log_prob as the loss, Adam steps, then the mixture's mean/variance and cdf
import torch
import torch.nn as nn
from torch.distributions import Categorical, MixtureSameFamily, Normal

K = 3
x = torch.linspace(-1, 1, 16).unsqueeze(1)
y = (x + 0.3 * torch.sin(2 * torch.pi * x)).squeeze(1)
net = nn.Sequential(nn.Linear(1, 12), nn.Tanh(), nn.Linear(12, 3 * K))
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float64) * 0.77 + i).view_as(p) * 0.6)
opt = torch.optim.Adam(net.parameters(), lr=0.02)


def mixture(inp):
    logits, mu, log_s = net(inp).chunk(3, dim=1)
    return MixtureSameFamily(Categorical(logits=logits), Normal(mu, log_s.exp()))


for step in range(5):
    mix = mixture(x)
    nll = -mix.log_prob(y).mean()
    opt.zero_grad()
    nll.backward()
    opt.step()
    print(step, f"{nll.item():.6f}")
mix = mixture(x[:3])
print(mix.batch_shape, mix.event_shape, mix.mixture_distribution.probs.shape)
print(mix.mean.detach().numpy().round(5), mix.variance.detach().numpy().round(5))
print(mix.cdf(torch.zeros(3)).detach().numpy().round(5))
print(mix.component_distribution.loc.shape, mix.sample((4,)).shape)
print(mix.log_prob(torch.tensor([[0.0], [0.5]])).shape)
