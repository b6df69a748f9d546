import torch
from torch.autograd.functional import jacobian


def F(v):
    x, y = v[0], v[1]
    return torch.stack([x ** 2 + y ** 2 - 4, torch.exp(x) + y - 1])


v = torch.tensor([1.0, -1.0])
for it in range(8):
    J = jacobian(F, v)
    step = torch.linalg.solve(J, -F(v))
    v = v + step
    if step.norm() < 1e-12:
        break
print(it, v.numpy().round(10), F(v).abs().max() < 1e-10)
t = torch.linspace(0, 1, 11)
y = 1.5 + 2.0 * t - 0.5 * t ** 2
A = torch.stack([torch.ones_like(t), t, t ** 2], dim=1)
sol = torch.linalg.lstsq(A, y.unsqueeze(1))
print(sol.solution.squeeze().numpy().round(8), sol.solution.shape)
print(torch.allclose(torch.linalg.pinv(A) @ y, sol.solution.squeeze()))
M = torch.tensor([[2.0, -1.0, 0.0], [-1.0, 2.0, -1.0], [0.0, -1.0, 2.0]])
evals, evecs = torch.linalg.eigh(M)
print(evals.numpy().round(8), torch.allclose(evecs @ torch.diag(evals) @ evecs.T, M))
print(torch.allclose(evecs.T @ evecs, torch.eye(3)))
U, S, Vh = torch.linalg.svd(A, full_matrices=False)
print(U.shape, S.numpy().round(6), Vh.shape, torch.allclose(U @ torch.diag(S) @ Vh, A))
k = 2
A_k = U[:, :k] @ torch.diag(S[:k]) @ Vh[:k]
print(round(torch.linalg.matrix_norm(A - A_k, ord=2).item(), 8), round(S[k].item(), 8))
Q, R = torch.linalg.qr(A)
print(Q.shape, R.shape, torch.allclose(Q @ R, A), torch.allclose(Q.T @ Q, torch.eye(3)))
Qc, Rc = torch.linalg.qr(A, mode='complete')
print(Qc.shape, Rc.shape)
L = torch.linalg.cholesky(M)
print(L.numpy().round(6), torch.allclose(L @ L.T, M))
b = torch.tensor([[1.0], [0.0], [1.0]])
z = torch.linalg.solve_triangular(L, b, upper=False)
x = torch.linalg.solve_triangular(L.T, z, upper=True)
print(x.squeeze().numpy().round(8), torch.allclose(torch.cholesky_solve(b, L), x))
Mreq = M.clone().requires_grad_()
torch.linalg.eigh(Mreq)[0].sum().backward()
print(Mreq.grad.numpy().round(8) + 0.0)
Areq = A.clone().requires_grad_()
torch.linalg.svdvals(Areq).sum().backward()
print(Areq.grad.shape, round(Areq.grad.abs().sum().item(), 6))
P = torch.tensor([[4.0, 2.0], [2.0, 3.0]], requires_grad=True)
logdet = 2 * torch.log(torch.diagonal(torch.linalg.cholesky(P))).sum()
logdet.backward()
print(round(logdet.item(), 10), torch.allclose(P.grad, torch.linalg.inv(P.detach())))
sign, logabsdet = torch.linalg.slogdet(M)
print(sign, logabsdet.item().__round__(10), torch.linalg.det(M).item().__round__(10))
print(torch.linalg.solve(M, torch.eye(3)).numpy().round(6))
