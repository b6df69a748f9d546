import torch

edges = torch.tensor([[0, 1], [0, 2], [1, 2], [2, 0], [3, 2], [3, 0], [4, 3], [4, 1]])
n = 5
src, dst = edges[:, 0], edges[:, 1]
out_deg = torch.zeros(n).index_add_(0, src, torch.ones(len(src)))
print(out_deg)
damping = torch.tensor(0.85, requires_grad=True)
r = torch.full((n,), 1.0 / n)
for it in range(60):
    contrib = r[src] / out_deg[src]
    incoming = torch.zeros(n).index_add(0, dst, contrib)
    r = (1 - damping) / n + damping * incoming
print(r.detach().round(decimals=5), round(r.sum().item(), 6))
r[2].backward()
print(round(damping.grad.item(), 5))
ranks = torch.argsort(r.detach(), descending=True)
print(ranks)
A = torch.zeros(n, n)
A[dst, src] = 1.0 / out_deg[src]
print(A.sum(0))
with torch.no_grad():
    M = 0.85 * A + 0.15 / n
    evals, evecs = torch.linalg.eig(M)
    k = evals.real.argmax()
    v = evecs[:, k].real
    v = v / v.sum()
print(torch.allclose(v, r.detach(), atol=1e-6), evals.real.max().round(decimals=6))
deg_in = torch.bincount(dst, minlength=n)
print(deg_in, torch.zeros(n).scatter_add(0, dst, torch.ones(len(dst))))
print(torch.zeros(n).scatter_reduce(0, dst, src.double(), reduce="amax", include_self=False))
