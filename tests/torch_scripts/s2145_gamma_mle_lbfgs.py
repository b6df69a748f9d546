import torch
from torch.distributions import Gamma

data = torch.tensor([0.8, 1.9, 2.4, 0.5, 3.3, 1.1, 2.0, 1.6, 0.9, 2.7])
log_conc = torch.tensor(0.0, requires_grad=True)
log_rate = torch.tensor(0.0, requires_grad=True)
opt = torch.optim.LBFGS([log_conc, log_rate], lr=1, max_iter=50, line_search_fn="strong_wolfe")

def closure():
    opt.zero_grad()
    nll = -Gamma(log_conc.exp(), log_rate.exp()).log_prob(data).sum()
    nll.backward()
    return nll

loss = opt.step(closure)
print(round(loss.item(), 4))
conc, rate = log_conc.exp().item(), log_rate.exp().item()
print(round(conc, 3), round(rate, 3), round(conc / rate, 4), round(data.mean().item(), 4))
final = closure()
print(round(final.item(), 5), abs(log_conc.grad.item()) < 1e-4)
state = opt.state[opt._params[0]]
print(sorted(k for k in state.keys() if not k.startswith("_"))[:4], state["n_iter"] > 0)
