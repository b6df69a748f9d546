import torch

vocab, dim = 5, 3
table = torch.arange(vocab * dim, dtype=torch.float64).view(vocab, dim) / 10
tokens = torch.tensor([[1, 3, 1], [4, 1, 0]])
emb = table[tokens]
upstream = torch.ones_like(emb) * torch.tensor([1.0, 2.0, 3.0])
grad_table = torch.zeros_like(table)
grad_table.index_put_((tokens.flatten(),), upstream.reshape(-1, dim), accumulate=True)
print(grad_table)
t2 = table.clone().requires_grad_()
(t2[tokens] * upstream).sum().backward()
print(torch.equal(t2.grad, grad_table))
m = torch.zeros(3, 3)
rows = torch.tensor([0, 1, 0, 2])
cols = torch.tensor([1, 1, 1, 0])
m.index_put_((rows, cols), torch.tensor([1.0, 2.0, 3.0, 4.0]), accumulate=True)
print(m)
m.index_put_((rows, cols), torch.tensor(9.0))
print(m)
v = torch.zeros(4, requires_grad=True)
w = v.clone()
w = w.index_put((torch.tensor([0, 0, 3]),), torch.tensor([1.0, 1.0, 2.0]) * (v[1] + 1), accumulate=True)
w.sum().backward()
print(w.detach(), v.grad)
counts = torch.zeros(5, dtype=torch.long)
counts.index_put_((tokens.flatten(),), torch.ones(6, dtype=torch.long), accumulate=True)
print(counts, counts.dtype)
