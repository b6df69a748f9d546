import torch
import torch.nn as nn

W = torch.tensor([[2.0, 1.0, 0.0], [0.5, -1.0, 3.0]], requires_grad=True)
u = torch.tensor([1.0, 0.0])
u = u / u.norm()
for _ in range(50):
    v = torch.nn.functional.normalize(W.detach().T @ u, dim=0)
    u = torch.nn.functional.normalize(W.detach() @ v, dim=0)
sigma = u @ W @ v
print(round(sigma.item(), 8), round(torch.linalg.matrix_norm(W.detach(), ord=2).item(), 8))
sigma.backward()
print(W.grad, torch.allclose(W.grad, torch.outer(u, v)))
Wsn = W / sigma.detach()
print(round(torch.linalg.svdvals(Wsn.detach())[0].item(), 8))
U, S, Vh = torch.linalg.svd(W.detach(), full_matrices=False)
print(S, U.shape, Vh.shape)
print(torch.allclose(U @ torch.diag(S) @ Vh, W.detach()))
lin = nn.utils.parametrizations.spectral_norm(nn.Linear(3, 2), n_power_iterations=5)
with torch.no_grad():
    lin.parametrizations.weight.original.copy_(W.detach())
lin.eval()
print(type(lin).__name__, [n for n, _ in lin.named_parameters()])
sv = torch.linalg.svdvals(lin.weight.detach())
print(sv.shape, sv[0].item() <= 1.0 + 1e-6)
print(torch.linalg.norm(W.detach(), "fro").round(decimals=6), torch.linalg.norm(W.detach(), "nuc").round(decimals=6))
print(torch.linalg.cond(W.detach() @ W.detach().T).round(decimals=5))
