# maximum-likelihood Gaussian fit by gradient ascent matches the closed form
import torch

data = torch.tensor([1.2, 0.7, 2.5, 1.9, 0.3, 1.1])
mu = torch.tensor(0.0, requires_grad=True)
log_sigma = torch.tensor(0.0, requires_grad=True)
opt = torch.optim.LBFGS([mu, log_sigma], lr=1, max_iter=100, line_search_fn="strong_wolfe")
def closure():
    opt.zero_grad()
    nll = -torch.distributions.Normal(mu, log_sigma.exp()).log_prob(data).sum()
    nll.backward()
    return nll
opt.step(closure)
print(round(mu.item(), 6), round(log_sigma.exp().item(), 6))
print(round(data.mean().item(), 6), round(data.std(correction=0).item(), 6))
