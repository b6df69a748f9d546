# einsum: traces, diagonals, outer products, ellipsis batches, sublist format, gradients
import torch

A = torch.arange(9.0).reshape(3, 3).requires_grad_()
B = torch.arange(6.0).reshape(3, 2).requires_grad_()
print(torch.einsum("ii", A), torch.einsum("ii->i", A), torch.einsum("ij->ji", A)[0])
y = torch.einsum("ij,jk->ik", A, B)
y.sum().backward()
print(y, A.grad, B.grad)
x = torch.arange(2 * 3 * 4.0).reshape(2, 3, 4)
print(torch.einsum("...ij->...ji", x).shape, torch.einsum("bij,bjk->bik", x, x.transpose(1, 2)).shape)
print(torch.einsum("i,j->ij", torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0, 5.0])))
print(torch.einsum(A, [0, 1], B, [1, 2], [0, 2]).shape)
print(torch.einsum("i i j -> j", torch.ones(2, 2, 3)))
v = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
q = torch.einsum("i,ij,j->", v, A.detach(), v)
q.backward()
print(q, v.grad)
try:
    torch.einsum("ij,jk->ik", A, A[:2])
except RuntimeError as e:
    print(str(e)[:120])
