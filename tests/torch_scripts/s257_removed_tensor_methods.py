import torch

S = torch.tensor([[2.0, 1.0], [1.0, 3.0]])
for name in ("eig", "symeig", "lstsq", "solve"):
    try:
        getattr(S, name)(*((S,) if name in ("lstsq", "solve") else ()))
    except RuntimeError as e:
        print(name, "removed:", "torch.linalg" in str(e))
print(hasattr(S, "matrix_rank"), hasattr(torch, "matrix_rank"))
L, V = torch.linalg.eigh(S)
print(L)
print(torch.allclose(V @ torch.diag(L) @ V.T, S))
print(torch.linalg.eigvalsh(S, UPLO="U"))
