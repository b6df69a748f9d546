import torch
from torch.distributions import Normal, MultivariateNormal, Gamma

cov = torch.tensor([[1.0, 0.8], [0.8, 1.0]])
target = MultivariateNormal(torch.tensor([1.0, -1.0]), covariance_matrix=cov)


def potential(q):
    return -target.log_prob(q)


def grad_u(q):
    q = q.detach().requires_grad_(True)
    u = potential(q)
    g, = torch.autograd.grad(u, q)
    return u.detach(), g


def leapfrog(q, p, eps, L):
    _, g = grad_u(q)
    p = p - 0.5 * eps * g
    for i in range(L):
        q = q + eps * p
        u, g = grad_u(q)
        if i < L - 1:
            p = p - eps * g
    p = p - 0.5 * eps * g
    return q, -p, u


q = torch.zeros(2)
momenta = [torch.tensor([0.5, -0.3]), torch.tensor([-1.0, 0.2]), torch.tensor([0.1, 0.9])]
for k, p0 in enumerate(momenta):
    u0, _ = grad_u(q)
    q_new, p_new, u1 = leapfrog(q, p0, 0.1, 10)
    H0 = u0 + 0.5 * p0.pow(2).sum()
    H1 = u1 + 0.5 * p_new.pow(2).sum()
    accept = torch.exp(torch.clamp(H0 - H1, max=0.0))
    print(k, q_new.round(decimals=4), round((H1 - H0).item(), 5), round(accept.item(), 4))
    q = q_new
print(target.log_prob(torch.tensor([[0.0, 0.0], [1.0, -1.0]])).round(decimals=5), target.entropy().round(decimals=5))
print(target.precision_matrix.round(decimals=4), target.scale_tril.round(decimals=4))
n = Normal(torch.tensor(0.0), torch.tensor(1.0))
x = torch.tensor([0.5, 1.5], requires_grad=True)
lp = n.log_prob(x).sum() + Gamma(torch.tensor(2.0), torch.tensor(3.0)).log_prob(x).sum()
lp.backward()
print(round(lp.item(), 6), x.grad)
print(n.cdf(torch.tensor([0.0, 1.96])).round(decimals=4), n.icdf(torch.tensor([0.975])).round(decimals=4))
