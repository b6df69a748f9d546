# gradients through solve, cholesky, eigh, svd, qr, lstsq, det and inv on fixed matrices
import torch

A0 = torch.tensor([[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]])
b0 = torch.tensor([[1.0], [2.0], [3.0]])

def show(name, fn):
    A = A0.clone().requires_grad_()
    out = fn(A)
    out.backward()
    print(name, f"{out.item():.5f}")
    print(A.grad.round(decimals=4))

show("solve", lambda A: torch.linalg.solve(A, b0).sum())
show("cholesky", lambda A: torch.linalg.cholesky(A).diagonal().log().sum())
show("eigh", lambda A: torch.linalg.eigh(A).eigenvalues.max())
show("eigvalsh", lambda A: (torch.linalg.eigvalsh(A) ** 2).sum())
show("svdvals", lambda A: torch.linalg.svdvals(A).sum())
show("qr", lambda A: torch.linalg.qr(A).R.diagonal().abs().sum())
show("slogdet", lambda A: torch.linalg.slogdet(A).logabsdet)
show("inv", lambda A: torch.linalg.inv(A).trace())
show("lstsq", lambda A: torch.linalg.lstsq(A[:, :2], b0).solution.sum())
show("matrix_norm", lambda A: torch.linalg.matrix_norm(A, ord="nuc"))
show("cholesky_solve", lambda A: torch.cholesky_solve(b0, torch.linalg.cholesky(A)).sum())
show("solve_triangular", lambda A: torch.linalg.solve_triangular(A.triu(), b0, upper=True).sum())
show("pinv", lambda A: torch.linalg.pinv(A[:2]).sum())
show("matrix_power", lambda A: torch.linalg.matrix_power(A, 3).sum() / 100)
