import torch

A = torch.arange(6.0).view(2, 3)
B = torch.arange(12.0).view(3, 4)
print(torch.einsum("ij,jk->ik", A, B), torch.allclose(torch.einsum("ij,jk->ik", A, B), A @ B))
print(torch.einsum("ij->ji", A), torch.einsum("ij->", A), torch.einsum("ii->i", torch.eye(3) * 2))
print(torch.einsum("i,j->ij", torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0, 5.0])))
bA = torch.arange(24.0).view(2, 3, 4)
bB = torch.arange(16.0).view(2, 4, 2)
print(torch.bmm(bA, bB), torch.einsum("bij,bjk->bik", bA, bB).equal(torch.bmm(bA, bB)))
print(torch.matmul(bA, torch.ones(4)).shape, torch.matmul(torch.ones(3), bA).shape, (bA @ torch.ones(1, 4, 5)).shape)
print(torch.mv(A, torch.ones(3)), torch.dot(torch.ones(3), torch.arange(3.0)), A.T @ A)
q = torch.linspace(-1, 1, 24).view(2, 3, 4).requires_grad_()
k = torch.linspace(1, -1, 24).view(2, 3, 4).requires_grad_()
att = torch.einsum("bqd,bkd->bqk", q, k) / 2.0
w = att.softmax(-1)
out = w @ k
out.pow(2).sum().backward()
print(att.grad_fn.name(), w.grad_fn.name(), out.grad_fn.name())
print(q.grad.round(decimals=5)[0], k.grad.abs().sum().round(decimals=5))
print(torch.addmm(torch.ones(2, 4), A, B, beta=0.5, alpha=2), torch.baddbmm(torch.zeros(2, 3, 2), bA, bB).shape)
print(torch.kron(torch.eye(2), torch.ones(2, 2)), torch.tensordot(A, B, dims=([1], [0])).shape)
