# Adversarial examples on a small classifier: FGSM with the sign of the input gradient,
# PGD with projection onto the L-inf ball via torch.clamp / torch.max / torch.min,
# then one step of adversarial training
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

rng = np.random.default_rng(301)
X = torch.from_numpy(rng.uniform(0, 1, (20, 6)))
Y = torch.from_numpy((X[:, :3].sum(1) > X[:, 3:].sum(1)).numpy().astype(np.int64))
model = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 2))
with torch.no_grad():
    for p in model.parameters():
        p.copy_(torch.from_numpy(rng.normal(0, 0.6, tuple(p.shape))))
opt = torch.optim.SGD(model.parameters(), lr=0.3)
for _ in range(30):
    opt.zero_grad()
    F.cross_entropy(model(X), Y).backward()
    opt.step()
model.eval()


def accuracy(x):
    with torch.no_grad():
        return (model(x).argmax(1) == Y).double().mean().item()


def fgsm(x, eps):
    x = x.clone().detach().requires_grad_(True)
    loss = F.cross_entropy(model(x), Y)
    grad, = torch.autograd.grad(loss, x)
    return (x + eps * grad.sign()).clamp(0, 1).detach()


def pgd(x, eps, alpha, steps):
    x_adv = x.clone().detach() + torch.from_numpy(rng.uniform(-eps, eps, tuple(x.shape)))
    for _ in range(steps):
        x_adv.requires_grad_(True)
        loss = F.cross_entropy(model(x_adv), Y)
        loss.backward()
        with torch.no_grad():
            x_adv = x_adv + alpha * x_adv.grad.sign()
            x_adv = torch.max(torch.min(x_adv, x + eps), x - eps).clamp(0, 1)
    return x_adv.detach()


print("clean", accuracy(X))
for eps in (0.05, 0.1, 0.2):
    xa = fgsm(X, eps)
    print("fgsm", eps, accuracy(xa), round((xa - X).abs().max().item(), 6))
xp = pgd(X, 0.1, 0.02, 10)
print("pgd", accuracy(xp), round((xp - X).abs().max().item(), 6))
model.train()
opt.zero_grad()
loss = 0.5 * F.cross_entropy(model(X), Y) + 0.5 * F.cross_entropy(model(fgsm(X, 0.1)), Y)
loss.backward()
opt.step()
print("adv train loss", round(loss.item(), 6), model[0].weight.grad.abs().sum().item() > 0)
print(model(X[:2]).detach().numpy().round(5))
