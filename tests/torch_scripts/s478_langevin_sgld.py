import torch
from torch.distributions import Normal, Bernoulli

X = torch.tensor([[1.0, 0.5], [-0.5, 1.5], [2.0, -1.0], [0.0, 0.0], [-1.5, -0.5], [0.5, 2.0]])
y = torch.tensor([1.0, 0.0, 1.0, 0.0, 0.0, 1.0])
prior = Normal(torch.zeros(2), 2.0 * torch.ones(2))


def log_post(w):
    lik = Bernoulli(logits=X @ w).log_prob(y).sum()
    return lik + prior.log_prob(w).sum()


w = torch.zeros(2, requires_grad=True)
eps = 0.05
noise = torch.stack([torch.sin(torch.arange(2.0) + k) for k in range(30)]) * 0.3
samples = []
for k in range(30):
    lp = log_post(w)
    g, = torch.autograd.grad(lp, w)
    with torch.no_grad():
        w += 0.5 * eps * g + eps ** 0.5 * noise[k]
    samples.append(w.detach().clone())
S = torch.stack(samples)
print(S.shape, S[-1].round(decimals=4), S[10:].mean(0).round(decimals=4))
w_map = torch.zeros(2, requires_grad=True)
opt = torch.optim.LBFGS([w_map], line_search_fn="strong_wolfe", max_iter=100)


def closure():
    opt.zero_grad()
    loss = -log_post(w_map)
    loss.backward()
    return loss


opt.step(closure)
H = torch.autograd.functional.hessian(lambda v: -log_post(v), w_map.detach())
cov = torch.linalg.inv(H)
print(w_map.detach().round(decimals=4), H.round(decimals=4), torch.diagonal(cov).sqrt().round(decimals=4))
lap = torch.distributions.MultivariateNormal(w_map.detach(), covariance_matrix=cov)
print(round(lap.log_prob(w_map.detach()).item(), 5), lap.mean.round(decimals=4), lap.stddev.round(decimals=4))
p_test = torch.sigmoid(torch.tensor([[1.0, 1.0]]) @ w_map.detach())
print(p_test.round(decimals=4))
