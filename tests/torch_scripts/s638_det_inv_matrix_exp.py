import torch

A = torch.tensor([[2.0, -1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 4.0]], requires_grad=True)
d = torch.linalg.det(A)
d.backward()
print(d.item(), A.grad)
A.grad = None
sign, logabs = torch.linalg.slogdet(A)
logabs.backward()
print(sign.item(), round(logabs.item(), 6), A.grad.round(decimals=6))
A.grad = None
torch.linalg.inv(A).trace().backward()
print(A.grad.round(decimals=6))
A.grad = None
E = torch.linalg.matrix_exp(0.3 * A)
E.sum().backward()
print(E.detach().round(decimals=5))
print(A.grad.round(decimals=5))
batch = torch.stack([torch.eye(2) * 2, torch.tensor([[0.0, 1.0], [-1.0, 0.0]])])
print(torch.linalg.matrix_exp(batch).round(decimals=5))
print(torch.linalg.det(batch), torch.logdet(batch[0]))
inv, info = torch.linalg.inv_ex(torch.tensor([[1.0, 2.0], [2.0, 4.0]]))
print(info)
print(torch.linalg.matrix_power(A.detach(), -2).round(decimals=6))
print(torch.linalg.cond(A.detach()).round(decimals=6), torch.linalg.matrix_rank(A.detach()))
