import math
import torch

data = torch.cat([torch.linspace(-2, -1, 8), torch.linspace(0.5, 2.5, 12)])
log_h = torch.tensor(0.0, requires_grad=True)


def loo_loglik(log_h):
    h = log_h.exp()
    d = (data[:, None] - data[None, :]) / h
    logk = -0.5 * d ** 2 - torch.log(h) - 0.5 * math.log(2 * math.pi)
    logk = logk.masked_fill(torch.eye(len(data), dtype=torch.bool), float("-inf"))
    return (torch.logsumexp(logk, dim=1) - math.log(len(data) - 1)).sum()


opt = torch.optim.SGD([log_h], lr=0.01)
for i in range(100):
    opt.zero_grad()
    nll = -loo_loglik(log_h)
    nll.backward()
    opt.step()
print(round(nll.item(), 5), round(log_h.exp().item(), 4))
grid = torch.linspace(-3, 3, 7)
h = log_h.detach().exp()
dens = torch.exp(-0.5 * ((grid[:, None] - data[None, :]) / h) ** 2).sum(1) / (len(data) * h * math.sqrt(2 * math.pi))
print(dens.round(decimals=4))
print(round(torch.trapezoid(dens, grid).item(), 4))
fine = torch.linspace(-5, 5, 401)
df = torch.exp(-0.5 * ((fine[:, None] - data[None, :]) / h) ** 2).sum(1) / (len(data) * h * math.sqrt(2 * math.pi))
print(round(torch.trapezoid(df, fine).item(), 5), round(torch.trapezoid(df, dx=0.025).item(), 5))
cdf = torch.cumulative_trapezoid(df, fine)
print(cdf.shape, round(cdf[-1].item(), 5))
