import torch

pts = torch.cat([torch.stack([torch.cos(a), torch.sin(a)], 1) * 0.3 + c for a, c in
                 ((torch.linspace(0, 6, 12), torch.tensor([0.0, 0.0])),
                  (torch.linspace(0.5, 6.5, 10), torch.tensor([3.0, 3.0])),
                  (torch.linspace(1, 7, 8), torch.tensor([0.0, 4.0])))])
K = 3
cent = pts[[0, 12, 22]].clone()
for it in range(10):
    assign = torch.cdist(pts, cent).argmin(dim=1)
    counts = torch.bincount(assign, minlength=K)
    sums = torch.zeros(K, 2).index_add_(0, assign, pts)
    new = sums / counts.unsqueeze(1).clamp(min=1)
    shift = (new - cent).norm()
    cent = new
    if shift < 1e-9:
        print("converged at", it)
        break
print(counts.tolist(), counts.dtype)
print(cent.round(decimals=4))
sums2 = torch.zeros(K, 2).scatter_add_(0, assign.unsqueeze(1).expand(-1, 2), pts)
print(torch.allclose(sums, sums2))
means3 = torch.zeros(K, 2).scatter_reduce(0, assign.unsqueeze(1).expand(-1, 2), pts, reduce="mean", include_self=False)
print(torch.allclose(means3, cent))
amax = torch.zeros(K, 2).scatter_reduce(0, assign.unsqueeze(1).expand(-1, 2), pts, reduce="amax", include_self=False)
print(amax.round(decimals=4))
inertia = ((pts - cent[assign]) ** 2).sum()
print(f"inertia {inertia.item():.4f}")
wc = torch.bincount(assign, weights=torch.linspace(0, 1, len(pts)))
print(wc.round(decimals=4), wc.dtype)
print(torch.bincount(torch.tensor([], dtype=torch.long)).shape, torch.bincount(torch.tensor([2, 2, 5])).tolist())
x = torch.zeros(5)
x.index_add_(0, torch.tensor([0, 0, 4]), torch.tensor([1.0, 2.0, 3.0]), alpha=2)
print(x)
y = torch.ones(2, 3).index_add(1, torch.tensor([2, 0]), torch.full((2, 2), 5.0))
print(y)
