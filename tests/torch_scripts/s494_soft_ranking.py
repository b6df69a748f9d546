import torch

torch.set_printoptions(precision=4)
scores = torch.tensor([0.3, -1.2, 2.0, 0.31, 0.9], requires_grad=True)


def soft_rank(x, tau=0.1):
    # rank_i = 1 + sum_j sigmoid((x_i - x_j) / tau), minus the self term 0.5
    diff = (x[:, None] - x[None, :]) / tau
    return 0.5 + torch.sigmoid(diff).sum(dim=1)


r = soft_rank(scores)
print(r)
hard = scores.argsort().argsort() + 1
print(hard, hard.dtype)
print(torch.sort(scores, descending=True))
print(torch.topk(scores, 2, largest=False))
target = torch.tensor([3.0, 1.0, 5.0, 2.0, 4.0])
loss = ((r - target) ** 2).mean()
loss.backward()
print(round(loss.item(), 6), scores.grad)
# Spearman-like correlation with soft ranks
def spearman(a, b):
    a = a - a.mean()
    b = b - b.mean()
    return (a * b).sum() / (a.norm() * b.norm())


scores.grad = None
for tau in (1.0, 0.3, 0.05):
    rho = spearman(soft_rank(scores, tau), target)
    g, = torch.autograd.grad(rho, scores)
    print(tau, round(rho.item(), 5), g.abs().sum().item() > 0)
# soft sort via a NeuralSort-style relaxation
x = scores.detach()
n = len(x)
A = (x[:, None] - x[None, :]).abs()
Bm = A.sum(dim=1)
scaling = n + 1 - 2 * (torch.arange(n, dtype=x.dtype) + 1)
P = torch.softmax((scaling[:, None] * x[None, :] - Bm[None, :]) / 0.05, dim=-1)
print((P @ x).round(decimals=3), x.sort(descending=True).values)
print(P.sum(dim=-1))
