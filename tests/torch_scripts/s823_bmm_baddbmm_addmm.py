# Fused matrix ops: addmm/addmv/addr/baddbmm/addbmm with beta/alpha, chain_matmul replacement
# multi_dot, matmul broadcasting of batch dims, mv / dot / vdot / inner / outer
import torch

M = torch.ones(2, 2)
a = torch.arange(6.0).view(2, 3)
b = torch.arange(6.0).view(3, 2)
print(torch.addmm(M, a, b), torch.addmm(M, a, b, beta=0.5, alpha=2))
print(torch.addmv(torch.ones(2), a, torch.ones(3), alpha=-1), torch.addr(torch.zeros(2, 3), torch.ones(2), torch.arange(3.0)))
B1 = torch.arange(12.0).view(2, 2, 3)
B2 = torch.arange(12.0).view(2, 3, 2)
print(torch.baddbmm(torch.zeros(2, 2, 2), B1, B2, alpha=0.5), torch.addbmm(torch.eye(2), B1, B2))
print(torch.bmm(B1, B2).shape, torch.linalg.multi_dot([a, b, a]).shape, torch.linalg.multi_dot([a, b, a]))
x = torch.ones(4, 1, 2, 3)
y = torch.ones(5, 3, 2)
print(torch.matmul(x, y).shape, (torch.ones(3) @ torch.ones(2, 3, 4)).shape, (torch.ones(2, 3, 4) @ torch.ones(4)).shape)
print(torch.mv(a, torch.tensor([1.0, 0.0, -1.0])), torch.dot(torch.ones(3), torch.arange(3.0)), torch.inner(a, a))
print(torch.outer(torch.tensor([1, 2]), torch.tensor([3, 4, 5])), torch.ger(torch.ones(2), torch.ones(2)) if hasattr(torch, "ger") else None)
A = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
torch.addmm(torch.zeros(2, 2), A, A, beta=0.0, alpha=3.0).sum().backward()
print(A.grad)
print(torch.chain_matmul(a, b) if hasattr(torch, "chain_matmul") else None)
