# symmetric eigendecomposition gradients vs power iteration
import torch

A0 = torch.tensor([[4.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 2.0]])
A = A0.clone().requires_grad_()
L, V = torch.linalg.eigh(A)
print(L)
L[-1].backward()
print(A.grad)
v = torch.ones(3)
for _ in range(200):
    v = A0 @ v
    v = v / v.norm()
print(torch.allclose(torch.outer(v, v), A.grad, atol=1e-8), (v @ A0 @ v).item())
B = A0.clone().requires_grad_()
torch.linalg.eigvalsh(B).pow(2).sum().backward()
print(torch.allclose(B.grad, 2 * A0))
