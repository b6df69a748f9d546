# Ordinal regression with cumulative logits (CORAL/proportional odds): one shared score and
# ordered thresholds kept monotone via cumsum of softplus increments, probabilities from
# differences of sigmoids, NLL; plus a mixup step with a fixed lambda
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

rng = np.random.default_rng(651)
K = 4
X = torch.from_numpy(rng.standard_normal((48, 3)))
latent = X @ torch.tensor([1.0, -1.0, 0.5])
Y = torch.bucketize(latent, torch.tensor([-1.0, 0.0, 1.0]))
print(torch.bincount(Y, minlength=K).tolist())


class Ordinal(nn.Module):
    def __init__(self):
        super().__init__()
        self.score = nn.Linear(3, 1, bias=False)
        self.first = nn.Parameter(torch.tensor(-1.0))
        self.deltas = nn.Parameter(torch.zeros(K - 2))

    def thresholds(self):
        return torch.cat([self.first.view(1), self.first + torch.cumsum(F.softplus(self.deltas), 0)])

    def forward(self, x):
        s = self.score(x)
        cum = torch.sigmoid(self.thresholds() - s)
        cum = torch.cat([torch.zeros(x.size(0), 1), cum, torch.ones(x.size(0), 1)], 1)
        return (cum[:, 1:] - cum[:, :-1]).clamp_min(1e-12)


model = Ordinal()
with torch.no_grad():
    model.score.weight.copy_(torch.tensor([[0.1, 0.1, 0.1]]))
opt = torch.optim.LBFGS(model.parameters(), lr=0.5, max_iter=10)


def closure():
    opt.zero_grad()
    loss = F.nll_loss(model(X).log(), Y)
    loss.backward()
    return loss


for it in range(3):
    print(it, f"{opt.step(closure).item():.6f}")
print(model.thresholds().detach().numpy().round(4), model.score.weight.detach().numpy().round(4))
probs = model(X[:3]).detach()
print(probs.numpy().round(4), probs.sum(1).numpy().round(10))
lam = 0.7
perm = torch.from_numpy(rng.permutation(48))
mixed = lam * X + (1 - lam) * X[perm]
logp = model(mixed).log()
loss = lam * F.nll_loss(logp, Y) + (1 - lam) * F.nll_loss(logp, Y[perm])
loss.backward()
print("mixup", round(loss.item(), 6), model.deltas.grad.numpy().round(6))
