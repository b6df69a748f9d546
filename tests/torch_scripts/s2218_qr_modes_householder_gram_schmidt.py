import torch

A = torch.tensor([[1.0, 2.0, 0.0], [1.0, 0.0, 1.0], [0.0, 1.0, 1.0], [1.0, 1.0, 1.0]])
for mode in ["reduced", "complete", "r"]:
    Q, R = torch.linalg.qr(A, mode=mode)
    print(mode, tuple(Q.shape), tuple(R.shape))
Q, R = torch.linalg.qr(A)
print(R.abs().round(decimals=5))
print(torch.allclose(Q @ R, A), torch.allclose(Q.T @ Q, torch.eye(3)))


def gram_schmidt(M):
    cols = []
    for j in range(M.shape[1]):
        v = M[:, j]
        for q in cols:
            v = v - (q @ M[:, j]) * q
        cols.append(v / v.norm())
    return torch.stack(cols, 1)


Qg = gram_schmidt(A)
print(torch.allclose(Qg.abs(), Q.abs()), (Qg * Q).sum(0).abs().round(decimals=6))
geqrf_a, tau = torch.geqrf(A)
print(tau.shape)
Qh = torch.linalg.householder_product(geqrf_a, tau)
print(torch.allclose(Qh, Q))
Ar = A.clone().requires_grad_()
Qr, Rr = torch.linalg.qr(Ar)
(Rr.diagonal().abs().sum() + Qr[:, 0].sum().abs()).backward()
print(Ar.grad.round(decimals=4))
coef = torch.linalg.solve_triangular(R, Q.T @ torch.tensor([[1.0], [2.0], [3.0], [4.0]]), upper=True)
print(coef.squeeze(1).round(decimals=6))
print(torch.linalg.lstsq(A, torch.tensor([[1.0], [2.0], [3.0], [4.0]])).solution.squeeze(1).round(decimals=6))
