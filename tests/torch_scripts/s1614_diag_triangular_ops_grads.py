# triangular and diagonal ops: tril/triu offsets, diagonal views, diag_embed, trace grads
import torch

A = torch.arange(1.0, 10.0).reshape(3, 3).requires_grad_()
print(A.tril(-1), A.triu(1))
(A.tril() * 2 + A.triu(1)).sum().backward()
print(A.grad)
A.grad = None
d = A.diagonal(offset=1)
print(d, d.grad_fn.name())
torch.trace(A).backward()
print(A.grad)
print(torch.diag_embed(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), offset=1).shape)
B = torch.zeros(3, 3)
B.diagonal().fill_(7)
print(B)
print(torch.diagonal(torch.arange(24.0).reshape(2, 3, 4), dim1=1, dim2=2))
x = torch.tensor([1.0, 2.0], requires_grad=True)
D = torch.diag(x)
(D @ torch.ones(2, 2)).sum().backward()
print(D, x.grad)
print(torch.linalg.solve_triangular(torch.tensor([[2.0, 0.0], [1.0, 1.0]]), torch.tensor([[2.0], [3.0]]), upper=False))
