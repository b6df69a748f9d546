# einsum contractions with 3-4 operands, batch matmul forms, attention-like 'bhqd,bhkd->bhqk', grads of all operands
import torch

a = torch.arange(6.0).view(2, 3).requires_grad_()
b = torch.arange(12.0).view(3, 4).requires_grad_()
c = torch.arange(8.0).view(4, 2).requires_grad_()
d = torch.tensor([1.0, -1.0]).requires_grad_()
r = torch.einsum("ij,jk,kl,l->i", a, b, c, d)
r.sum().backward()
print(r, a.grad, c.grad, d.grad)
q = torch.sin(torch.arange(24.0)).view(1, 2, 3, 4)
k = torch.cos(torch.arange(24.0)).view(1, 2, 3, 4)
print(torch.round(torch.einsum("bhqd,bhkd->bhqk", q, k)[0, 1], decimals=6))
print(torch.einsum("bij,bjk->bik", torch.ones(2, 2, 3), torch.ones(2, 3, 1)).shape, torch.einsum("ijk->kji", torch.zeros(1, 2, 3)).shape)
print(torch.einsum("i,i,i->", torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0]), torch.tensor([5.0, 6.0])))
print(torch.einsum("ab,ab->a", torch.ones(2, 3), torch.arange(6.0).view(2, 3)), torch.einsum("ab->ba", torch.arange(4).view(2, 2)))
try:
    torch.einsum("ij,jk->ik", torch.ones(2, 3), torch.ones(4, 2))
except RuntimeError as e:
    print("RuntimeError:", e)
