# einsum forward and backward: bilinear form, batched trace, attention logits
import torch

q = torch.tensor([[[1.0, 0.5], [0.0, 1.0]]], requires_grad=True)
k = torch.tensor([[[2.0, 1.0], [1.0, -1.0], [0.5, 0.5]]], requires_grad=True)
s = torch.einsum("bqd,bkd->bqk", q, k)
s.softmax(-1).pow(2).sum().backward()
print(s, q.grad.round(decimals=6), k.grad.round(decimals=6))
M = torch.arange(8.0).reshape(2, 2, 2).requires_grad_()
tr = torch.einsum("bii->b", M)
tr.sum().backward()
print(tr, M.grad)
x = torch.tensor([1.0, 2.0], requires_grad=True)
W = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
bil = torch.einsum("i,ij,j->", x, W, x)
g, = torch.autograd.grad(bil, x)
print(bil, g)
