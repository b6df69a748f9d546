import torch

X = torch.tensor([[0.0, 0.0], [1.0, 0.0], [0.0, 2.0], [1.0, 1.0]], requires_grad=True)
Y = torch.tensor([[0.5, 0.5], [2.0, -1.0]])
for p in [1.0, 2.0, 3.0, float("inf")]:
    D = torch.cdist(X, Y, p=p)
    print(p, D.detach().round(decimals=4).tolist())
D = torch.cdist(X, X)
print(D.detach().diagonal(), D.shape)
ls = torch.tensor(0.7, requires_grad=True)
K_rbf = torch.exp(-0.5 * torch.cdist(X, Y).pow(2) / ls ** 2)
r = torch.cdist(X, Y) / ls
K_m32 = (1 + 3 ** 0.5 * r) * torch.exp(-3 ** 0.5 * r)
K_lap = torch.exp(-torch.cdist(X, Y, p=1) / ls)
(K_rbf.sum() + K_m32.sum() + K_lap.sum()).backward()
print(round(ls.grad.item(), 6), X.grad.round(decimals=5))
Xd = X.detach()
sq = (Xd.unsqueeze(1) - Xd.unsqueeze(0)).pow(2).sum(-1)
print(torch.allclose(sq.sqrt(), torch.cdist(Xd, Xd)), torch.pdist(Xd).round(decimals=4))
poly = (Xd @ Y.T + 1) ** 3
print(poly, torch.nn.functional.pairwise_distance(Xd[:2], Y, p=2).round(decimals=4))
cos = torch.nn.functional.cosine_similarity(Xd.unsqueeze(1), Y.unsqueeze(0), dim=-1)
print(cos.round(decimals=4))
B = torch.arange(12.0).view(2, 3, 2)
print(torch.cdist(B, B[:, :2]).shape, torch.cdist(B, B[:, :2]).round(decimals=3))
Z = torch.tensor([[1.0, 1.0], [1.0, 1.0]], requires_grad=True)
torch.cdist(Z, Z).sum().backward()
print(Z.grad)
