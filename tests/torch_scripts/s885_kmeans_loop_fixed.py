# k-means with a fixed initialisation: cdist, argmin assignments, index_add for new centroids,
# convergence check, inertia
import torch

pts = torch.tensor([[0.0, 0.0], [0.2, 0.1], [0.1, -0.1], [5.0, 5.0], [5.2, 4.9], [4.8, 5.1], [0.0, 5.0], [0.1, 5.2]])
C = pts[[0, 3, 6]].clone() + 0.3
for it in range(10):
    d = torch.cdist(pts, C)
    assign = d.argmin(1)
    sums = torch.zeros_like(C).index_add_(0, assign, pts)
    counts = torch.bincount(assign, minlength=3).clamp(min=1).unsqueeze(1)
    newC = sums / counts
    shift = (newC - C).norm()
    C = newC
    if shift < 1e-9:
        print("converged at", it)
        break
print(C, assign, torch.bincount(assign))
print(((pts - C[assign]) ** 2).sum())
