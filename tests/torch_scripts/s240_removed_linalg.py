import torch

A = torch.tensor([[4.0, 1.0], [2.0, 3.0]])
B = torch.tensor([[1.0], [2.0]])
for name, call in [("solve", lambda: torch.solve(B, A)), ("lstsq", lambda: torch.lstsq(B, A)),
                   ("eig", lambda: torch.eig(A)), ("symeig", lambda: torch.symeig(A)),
                   ("matrix_rank", lambda: torch.matrix_rank(A)),
                   ("Tensor.solve", lambda: B.solve(A))]:
    try:
        call()
    except RuntimeError as e:
        lines = str(e).splitlines()
        print(name, "->", lines[0][:60], "|", lines[-1])
X = torch.linalg.solve(A, B)
print(X)
print(torch.linalg.lstsq(A, B).solution)
print(torch.linalg.eigvalsh(A @ A.T))
print(torch.linalg.matrix_rank(A))
