# K-means written in torch (cdist/argmin/index_add), PCA by SVD, and numpy round trips
import numpy as np
import torch

pts = np.concatenate([np.stack([np.cos(np.arange(10) * 0.6), np.sin(np.arange(10) * 0.6)], 1) * 0.3 + c
                      for c in ([0, 0], [3, 3], [0, 4])])
X = torch.from_numpy(pts)
print(X.dtype, X.shape, np.shares_memory(X.numpy(), pts))
k = 3
centroids = X[[0, 10, 20]].clone()
for it in range(10):
    d = torch.cdist(X, centroids)
    assign = d.argmin(dim=1)
    new = torch.zeros_like(centroids).index_add_(0, assign, X)
    counts = torch.bincount(assign, minlength=k).unsqueeze(1)
    new = new / counts
    shift = (new - centroids).norm()
    centroids = new
    if shift < 1e-9:
        print("converged at", it)
        break
print(centroids.round(decimals=4), torch.bincount(assign).tolist())
inertia = (X - centroids[assign]).pow(2).sum()
print(f"inertia {inertia:.5f}")
Xc = X - X.mean(dim=0, keepdim=True)
U, S, Vh = torch.linalg.svd(Xc, full_matrices=False)
explained = S ** 2 / (S ** 2).sum()
print(explained.round(decimals=4), Vh.shape)
proj = Xc @ Vh.T[:, :1]
print(proj.shape, (proj.abs().max() - (U[:, 0] * S[0]).abs().max()).abs().item() < 1e-10)
cov = torch.cov(X.T)
evals = torch.linalg.eigvalsh(cov)
print(torch.allclose(evals.flip(0), S ** 2 / (len(X) - 1)))
a = torch.arange(4.0)
n = a.numpy()
n[0] = 100
print(a, torch.as_tensor(n).dtype, torch.tensor(n) is not a)
print(torch.from_numpy(np.array([1, 2], dtype=np.int32)).dtype, np.asarray(a).dtype)
