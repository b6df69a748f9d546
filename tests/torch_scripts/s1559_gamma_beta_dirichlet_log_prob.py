# log_prob and entropy gradients for Gamma, Beta and Dirichlet parameters
import torch
from torch.distributions import Gamma, Beta, Dirichlet

conc = torch.tensor([2.0, 0.5], requires_grad=True)
rate = torch.tensor([1.0, 3.0], requires_grad=True)
g = Gamma(conc, rate)
lp = g.log_prob(torch.tensor([1.5, 0.2]))
lp.sum().backward()
print(lp, conc.grad, rate.grad)
print(g.mean, g.variance, g.entropy())
a = torch.tensor(2.0, requires_grad=True)
b = torch.tensor(5.0, requires_grad=True)
be = Beta(a, b)
be.log_prob(torch.tensor([0.1, 0.5])).sum().backward()
print(a.grad, b.grad, be.mean, be.mode if hasattr(be, "mode") else None)
alpha = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
d = Dirichlet(alpha)
e = d.entropy()
e.backward()
print(d.log_prob(torch.tensor([0.2, 0.3, 0.5])), e, alpha.grad)
print(d.mean, d.variance, d.event_shape)
try:
    Beta(torch.tensor(-1.0), torch.tensor(1.0))
except ValueError as err:
    print(str(err)[:120])
try:
    g.log_prob(torch.tensor([-1.0, 1.0]))
except ValueError as err:
    print(str(err)[:120])
