# printing results of 1-D @ 2-D and 2-D @ 3-D products (grad_fn shown in the repr)
import torch

v = torch.tensor([1.0, -1.0], requires_grad=True)
M = torch.tensor([[2.0, 0.0, 1.0], [1.0, 1.0, 0.0]])
print(v @ M)
print(torch.matmul(v, M))
T = torch.ones(2, 3, 2)
print(M.T @ v)
print(M.detach().requires_grad_() @ T)
print(torch.ones(1, 3, requires_grad=True) @ torch.ones(2, 3, 4))
