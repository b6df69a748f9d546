# Count regression: Poisson GLM via nn.PoissonNLLLoss(log_input=True) with an exposure
# offset, compared with the torch.distributions.Poisson log_prob, then a negative binomial
# head (NegativeBinomial(total_count, logits)) for overdispersed counts
import numpy as np
import torch
import torch.nn as nn
from torch.distributions import NegativeBinomial, Poisson

rng = np.random.default_rng(661)
N = 60
X = torch.from_numpy(rng.standard_normal((N, 2)))
exposure = torch.from_numpy(rng.uniform(0.5, 2.0, N))
rate = torch.exp(0.3 + X @ torch.tensor([0.8, -0.4])) * exposure
counts = torch.from_numpy(rng.poisson(rate.numpy()).astype(np.float64))
print(counts[:8].tolist(), counts.mean().item().__round__(4))
glm = nn.Linear(2, 1)
nn.init.zeros_(glm.weight)
nn.init.zeros_(glm.bias)
crit = nn.PoissonNLLLoss(log_input=True, full=True)
opt = torch.optim.Adam(glm.parameters(), lr=0.1)
for it in range(40):
    opt.zero_grad()
    log_mu = glm(X).squeeze(1) + exposure.log()
    loss = crit(log_mu, counts)
    loss.backward()
    opt.step()
print(f"{loss.item():.6f}", glm.weight.detach().numpy().round(4), glm.bias.detach().numpy().round(4))
with torch.no_grad():
    lp = Poisson(log_mu.exp()).log_prob(counts).mean()
print("matches -log_prob", round(-lp.item(), 6), round(loss.item(), 6))


class NBHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(2, 1)
        self.log_r = nn.Parameter(torch.tensor(0.0))
        nn.init.zeros_(self.lin.weight)
        nn.init.zeros_(self.lin.bias)

    def forward(self, x, off):
        return NegativeBinomial(total_count=self.log_r.exp(), logits=self.lin(x).squeeze(1) + off - self.log_r)


nb = NBHead()
opt2 = torch.optim.Adam(nb.parameters(), lr=0.05)
for it in range(30):
    opt2.zero_grad()
    nll = -nb(X, exposure.log()).log_prob(counts).mean()
    nll.backward()
    opt2.step()
d = nb(X[:3], exposure[:3].log())
print(f"{nll.item():.6f}", d.mean.detach().numpy().round(4), d.variance.detach().numpy().round(4))
print(round(nb.log_r.exp().item(), 5), nb.log_r.grad.item().__round__(6))
