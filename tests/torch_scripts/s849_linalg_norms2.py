# Norm flavours: vector_norm ord/dims, matrix_norm fro/nuc/inf, torch.norm legacy forms,
# Tensor.norm(p, dim), renorm, and gradients of norms at nonzero points
import torch

x = torch.tensor([[3.0, -4.0], [1.0, 2.0]])
print(torch.linalg.vector_norm(x), torch.linalg.vector_norm(x, ord=1, dim=1), torch.linalg.vector_norm(x, ord=float("inf")))
print(torch.linalg.vector_norm(x, ord=0), torch.linalg.vector_norm(x, ord=-1, dim=0), torch.linalg.vector_norm(x, 3, dim=(0, 1), keepdim=True))
print(torch.linalg.matrix_norm(x), torch.linalg.matrix_norm(x, ord=1), torch.linalg.matrix_norm(x, ord=float("inf")))
print(torch.linalg.norm(x), torch.linalg.norm(x, dim=1), torch.linalg.norm(x[0]), torch.linalg.norm(x, "fro"))
print(torch.norm(x), torch.norm(x, p=1), torch.norm(x, dim=0), torch.norm(x, p="fro", dim=(0, 1)), x.norm(2, 1, True))
print(torch.renorm(x, p=2, dim=0, maxnorm=2.0), x.renorm(1, 1, 3.0))
v = torch.tensor([3.0, 4.0], requires_grad=True)
torch.linalg.vector_norm(v).backward()
print(v.grad)
v.grad = None
torch.linalg.vector_norm(v, ord=1).backward()
print(v.grad)
v.grad = None
v.norm(p=float("inf")).backward()
print(v.grad)
M = torch.tensor([[2.0, 1.0], [0.0, 3.0]], requires_grad=True)
torch.linalg.matrix_norm(M).backward()
print(M.grad)
print(torch.linalg.vector_norm(torch.tensor([1, 2, 2]).float(), dtype=torch.float64).dtype, torch.linalg.norm(torch.zeros(0)))
