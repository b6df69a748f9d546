import torch

x = torch.tensor([[3.0, -4.0, 0.0], [1.0, 2.0, -2.0]], requires_grad=True)
for ord in [None, 1, 2, float("inf"), -float("inf"), 0, 3, 0.5]:
    print("vector", ord, torch.linalg.vector_norm(x, ord=ord if ord is not None else 2).item() if True else None)
for ord in ["fro", "nuc", 1, -1, float("inf"), 2, -2]:
    print("matrix", ord, round(torch.linalg.matrix_norm(x, ord=ord).item(), 6))
print(torch.linalg.norm(x, dim=1))
print(torch.linalg.norm(x, ord=1, dim=0))
print(torch.norm(x, p="fro"), torch.norm(x, dim=1, keepdim=True))
print(x.norm(p=1, dim=1))
torch.linalg.vector_norm(x, ord=3, dim=1).sum().backward()
print(x.grad.round(decimals=6))
x.grad = None
torch.linalg.vector_norm(x, ord=float("inf")).backward()
print(x.grad)
print(torch.linalg.vector_norm(torch.tensor([1, 2, 2]).float(), dtype=torch.float64).dtype)
print(torch.linalg.norm(torch.tensor([[1.0, 2.0], [3.0, 4.0]])))
