import torch

X = torch.stack([torch.linspace(0, 1, 8), torch.linspace(0, 1, 8) ** 2, torch.cos(torch.arange(8.0))], dim=1)
mu, sd = X.mean(0), X.std(0)
Z = (X - mu) / sd
print(mu, sd, Z.mean(0).abs().max() < 1e-12, Z.std(0))
C = torch.cov(X.T)
print(C, torch.corrcoef(X.T))
print(torch.cov(X.T, correction=0), torch.cov(X.T, fweights=torch.tensor([1, 2, 1, 1, 1, 1, 1, 3])), torch.cov(X.T, aweights=torch.linspace(0.5, 1, 8)))
U, S, Vh = torch.linalg.svd(X - mu, full_matrices=False)
print(S, (S ** 2 / (S ** 2).sum()).cumsum(0))
proj = (X - mu) @ Vh[:2].T
print(proj.abs(), proj.shape)
evals, evecs = torch.linalg.eigh(C)
print(evals.flip(0), torch.allclose(evals.flip(0), S ** 2 / 7))
for mode in ["linear", "lower", "higher", "midpoint", "nearest"]:
    print(mode, torch.quantile(X[:, 2], torch.tensor([0.1, 0.5, 0.9]), interpolation=mode))
print(torch.quantile(X, 0.5, dim=0, keepdim=True), torch.median(X, dim=0), torch.nanmedian(torch.tensor([1.0, float("nan"), 3.0, 2.0])))
print(torch.std(X, dim=0, correction=2), torch.var(X, 1, keepdim=True).shape, torch.var_mean(X, 0, correction=0))
print(torch.aminmax(X, dim=0), torch.histc(X[:, 2], bins=4), torch.histogram(X[:, 2], bins=4, range=(-1.0, 1.0), weight=torch.ones(8) * 0.5))
x = torch.tensor([3.0, 1.0, 2.0, 2.0, 5.0])
ranks = x.argsort().argsort()
print(ranks, torch.topk(x, 3, sorted=True), x.kthvalue(3), torch.mode(x))
rx, ry = X[:, 0].argsort().argsort().double(), X[:, 2].argsort().argsort().double()
print(torch.corrcoef(torch.stack([rx, ry]))[0, 1])
w = torch.softmax(torch.tensor([0.1, 0.5, 0.2]), 0)
print(torch.sum(w * torch.tensor([1.0, 2.0, 3.0])), torch.dot(w, torch.tensor([1.0, 2.0, 3.0])), torch.special.entr(w).sum())
