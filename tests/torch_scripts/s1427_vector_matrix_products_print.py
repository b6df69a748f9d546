# vector @ matrix, matrix @ vector, batched and broadcast products, printed with their grad_fn
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
W = torch.tensor([[1.0, 0.0, -1.0], [2.0, 1.0, 0.5]], requires_grad=True)
print(x @ W)
print(W.T @ x)
print(x @ x)
B = torch.arange(12.0).reshape(2, 2, 3).requires_grad_()
print(x @ B)
print(B @ torch.ones(3))
print(W @ B.transpose(1, 2))
print(torch.ones(1, 2) @ B)
print(torch.matmul(B, W.T).shape, torch.einsum("bij,kj->bik", B, W).grad_fn is not None)
(x @ W).sum().backward()
print(x.grad, W.grad)
