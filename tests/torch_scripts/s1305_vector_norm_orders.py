# linalg.vector_norm/norm orders, dims, and gradients including at zero
import torch

x = torch.tensor([[3.0, -4.0, 0.0], [0.0, 0.0, 0.0]], requires_grad=True)
for o in [2, 1, float("inf"), -float("inf"), 0, 3]:
    print(o, torch.linalg.vector_norm(x, ord=o, dim=1))
n = torch.linalg.vector_norm(x, dim=1)
n.sum().backward()
print(x.grad)
x.grad = None
torch.linalg.vector_norm(x, ord=1, dim=1).sum().backward()
print(x.grad)
print(torch.linalg.norm(torch.tensor([[1.0, 2.0], [3.0, 4.0]])), torch.linalg.norm(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), ord="fro"), torch.linalg.matrix_norm(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), ord=1))
print(x.detach().norm(dim=1, keepdim=True), torch.norm(x.detach(), p="fro"))
