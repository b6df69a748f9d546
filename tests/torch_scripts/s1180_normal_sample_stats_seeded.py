# Seeded sampling checked through statistics only: sample means near parameters, shapes of rsample, reproducible equality
import torch
from torch.distributions import Normal, Gamma, Dirichlet, Categorical

torch.manual_seed(0)
s = Normal(torch.tensor([0.0, 5.0]), torch.tensor([1.0, 0.1])).sample((20000,))
print(s.shape, (s.mean(0) - torch.tensor([0.0, 5.0])).abs().max() < 0.05)
g = Gamma(torch.tensor(3.0), torch.tensor(2.0)).rsample((20000,))
print(g.shape, abs(g.mean().item() - 1.5) < 0.05, g.requires_grad)
d = Dirichlet(torch.tensor([1.0, 1.0, 2.0])).sample((5,))
print(d.shape, torch.allclose(d.sum(-1), torch.ones(5)))
c = Categorical(probs=torch.tensor([0.0, 1.0, 0.0])).sample((6,))
print(c, c.dtype)
torch.manual_seed(5)
a = Normal(0.0, 1.0).sample((3,))
torch.manual_seed(5)
print(torch.equal(a, Normal(0.0, 1.0).sample((3,))))
