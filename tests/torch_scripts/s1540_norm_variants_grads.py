# vector and matrix norms: every ord, dims, keepdim, and gradients including ties and zeros
import torch
import torch.linalg as LA

x = torch.tensor([3.0, -4.0, 0.0, 1.0], requires_grad=True)
for ord in [2, 1, float("inf"), -float("inf"), 0, 3, 0.5, -1]:
    n = LA.vector_norm(x, ord)
    (g,) = torch.autograd.grad(n, x, allow_unused=True, materialize_grads=True)
    print(ord, round(n.item(), 8), (g.round(decimals=8) + 0.0).tolist())
M = torch.tensor([[1.0, -2.0], [3.0, 0.5]], requires_grad=True)
for ord in ["fro", "nuc", 2, -2, 1, -1, float("inf"), -float("inf")]:
    n = LA.matrix_norm(M, ord)
    (g,) = torch.autograd.grad(n, M)
    print(ord, round(n.item(), 6), (g.round(decimals=6) + 0.0).tolist())
print(LA.norm(M), LA.norm(M, dim=1), LA.norm(M, 1, dim=0, keepdim=True))
print(torch.norm(M, p=1), torch.norm(M, dim=0), M.norm(p="fro"))
z = torch.zeros(3, requires_grad=True)
LA.vector_norm(z).backward()
print(z.grad)
t = torch.tensor([2.0, -2.0, 1.0], requires_grad=True)
LA.vector_norm(t, float("inf")).backward()
print(t.grad)
print(LA.vector_norm(torch.tensor([1, 2]).float(), dtype=torch.float64).dtype)
try:
    LA.vector_norm(torch.tensor([1, 2]))
except RuntimeError as e:
    print(e)
