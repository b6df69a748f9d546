import torch
from torch.distributions import Normal, Laplace, kl_divergence, register_kl

@register_kl(Laplace, Normal)
def _kl_laplace_normal_mc(p, q):
    # deterministic quadrature instead of sampling
    t = torch.linspace(-8, 8, 401)
    xs = p.loc.unsqueeze(-1) + p.scale.unsqueeze(-1) * t
    lp = p.log_prob(xs.movedim(-1, 0)).movedim(0, -1)
    lq = q.log_prob(xs.movedim(-1, 0)).movedim(0, -1)
    w = lp.exp() * (t[1] - t[0]) * p.scale.unsqueeze(-1)
    return (w * (lp - lq)).sum(-1)

loc = torch.tensor([0.0, 0.5], requires_grad=True)
p = Laplace(loc, torch.tensor([1.0, 0.7]))
q = Normal(torch.tensor(0.0), torch.tensor(1.5))
kl = kl_divergence(p, q)
print(kl.round(decimals=4))
kl.sum().backward()
print(loc.grad.round(decimals=4))
print(kl_divergence(Normal(0.0, 1.0), Normal(1.0, 2.0)).round(decimals=6))
try:
    kl_divergence(Normal(0.0, 1.0), Laplace(0.0, 1.0))
    print("has normal-laplace")
except NotImplementedError:
    print("no kl for Normal, Laplace")
