# matrix_exp of a skew-symmetric matrix is a rotation; gradient w.r.t. the angle
import torch

theta = torch.tensor(0.7, requires_grad=True)
K = torch.stack([torch.stack([torch.tensor(0.0), -theta]), torch.stack([theta, torch.tensor(0.0)])])
R = torch.linalg.matrix_exp(K)
print(R)
print(torch.allclose(R, torch.tensor([[0.7, 0.0], [0.0, 0.7]]).cos() * torch.eye(2) + torch.tensor([[0.0, -1.0], [1.0, 0.0]]) * torch.sin(torch.tensor(0.7))))
R[1, 0].backward()
print(theta.grad, torch.cos(torch.tensor(0.7)))
