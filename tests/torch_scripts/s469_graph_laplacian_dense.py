import torch

edges = torch.tensor([[0, 1], [1, 2], [2, 3], [3, 0], [0, 2]])
n = 4
w = torch.tensor([1.0, 2.0, 1.0, 0.5, 1.5], requires_grad=True)
A = torch.zeros(n, n)
A = A.index_put((edges[:, 0], edges[:, 1]), w, accumulate=True)
A = A + A.T
deg = A.sum(1)
L = torch.diag(deg) - A
print(A.detach(), deg.detach())
evals = torch.linalg.eigvalsh(L)
print(evals.detach().round(decimals=4) + 0.0)
fiedler = evals[1]
fiedler.backward()
print(round(fiedler.item(), 5), w.grad.round(decimals=5))
Dm12 = torch.diag(deg.detach().rsqrt())
Ln = torch.eye(n) - Dm12 @ A.detach() @ Dm12
print(torch.linalg.eigvalsh(Ln).round(decimals=4))
x = torch.tensor([1.0, 0.0, -1.0, 0.5])
print(round((x @ L.detach() @ x).item(), 6), round(0.5 * (A.detach() * (x[:, None] - x[None, :]) ** 2).sum().item(), 6))
heat = torch.linalg.matrix_exp(-0.5 * L.detach())
print(heat.sum(1).round(decimals=5), heat.diagonal().round(decimals=4))
src = torch.zeros(n).index_add_(0, edges[:, 0], torch.ones(len(edges)))
print(src, torch.bincount(edges.flatten(), minlength=n))
A2 = torch.zeros(n, n)
A2[edges[:, 0], edges[:, 1]] = 1.0
print(A2.sum(), (A2 @ A2).trace(), torch.linalg.matrix_power(A2 + A2.T, 3).diagonal())
