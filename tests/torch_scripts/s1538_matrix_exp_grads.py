# matrix exponential: rotations from skew matrices, gradients, batches, and the ODE check
import torch

theta = torch.tensor(0.7, requires_grad=True)
K = torch.stack([torch.stack([torch.zeros(()), -theta]), torch.stack([theta, torch.zeros(())])])
R = torch.linalg.matrix_exp(K)
print(R)
print(R.grad_fn.name())
R[0, 1].backward()
print(theta.grad, -torch.cos(theta.detach()))
A = torch.tensor([[[0.1, 0.2], [0.0, -0.3]], [[1.0, 0.0], [0.0, 2.0]]], requires_grad=True)
E = torch.matrix_exp(A)
print(E)
E.sum().backward()
print(A.grad)
N = torch.tensor([[0.0, 1.0], [0.0, 0.0]])
print(torch.linalg.matrix_exp(N))
print(torch.linalg.matrix_exp(torch.zeros(0, 0)).shape)
