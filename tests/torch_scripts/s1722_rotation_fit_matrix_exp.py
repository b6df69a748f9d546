# Fitting a 3-D rotation (Procrustes) by gradient descent on the Lie algebra: a skew-
# symmetric matrix from 3 parameters, torch.linalg.matrix_exp, compared against the
# closed-form SVD solution with a determinant correction
import numpy as np
import torch

rng = np.random.default_rng(701)
P = torch.from_numpy(rng.standard_normal((20, 3)))
w_true = torch.tensor([0.3, -0.5, 0.8])


def hat(w):
    z = torch.zeros((), dtype=w.dtype)
    return torch.stack([torch.stack([z, -w[2], w[1]]), torch.stack([w[2], z, -w[0]]),
                        torch.stack([-w[1], w[0], z])])


R_true = torch.linalg.matrix_exp(hat(w_true))
Q = P @ R_true.T + 0.01 * torch.from_numpy(rng.standard_normal((20, 3)))
w = torch.zeros(3, requires_grad=True)
opt = torch.optim.Adam([w], lr=0.1)
for it in range(40):
    opt.zero_grad()
    R = torch.linalg.matrix_exp(hat(w))
    loss = ((P @ R.T - Q) ** 2).sum(1).mean()
    loss.backward()
    opt.step()
    if it % 10 == 9:
        print(it, f"{loss.item():.7f}", w.detach().numpy().round(4))
H = P.T @ Q
U, S, Vh = torch.linalg.svd(H)
d = torch.sign(torch.linalg.det(Vh.T @ U.T))
D = torch.diag(torch.stack([torch.ones(()), torch.ones(()), d]))
R_svd = Vh.T @ D @ U.T
R_gd = torch.linalg.matrix_exp(hat(w.detach()))
print((R_svd - R_gd).abs().max().item() < 1e-3, round(torch.linalg.det(R_gd).item(), 10))
print(R_svd.numpy().round(4))
angle = torch.arccos(((R_svd.T @ R_true).trace() - 1).clamp(-2, 2) / 2)
print("angle error", round(angle.item(), 5))
