import math
import torch
import torch.nn as nn


class LowerTriangularFlow(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.raw = nn.Parameter(torch.zeros(dim, dim))
        self.log_diag = nn.Parameter(torch.zeros(dim))
        self.shift = nn.Parameter(torch.zeros(dim))
        self.register_buffer("mask", torch.tril(torch.ones(dim, dim), diagonal=-1))

    def matrix(self):
        return self.raw * self.mask + torch.diag_embed(self.log_diag.exp())

    def forward(self, x):
        L = self.matrix()
        z = x @ L.T + self.shift
        return z, self.log_diag.sum().expand(x.shape[0])

    def inverse(self, z):
        L = self.matrix()
        return torch.linalg.solve_triangular(L, (z - self.shift).T, upper=False).T


flow = LowerTriangularFlow(3)
with torch.no_grad():
    flow.raw.copy_(torch.arange(9.0).view(3, 3) / 10)
    flow.log_diag.copy_(torch.tensor([0.1, -0.2, 0.3]))
x = torch.tensor([[1.0, 2.0, 3.0], [-1.0, 0.5, 0.0]])
z, logdet = flow(x)
sign, ld = torch.linalg.slogdet(flow.matrix())
print(z.detach().round(decimals=5))
print(logdet.detach(), sign.item(), round(ld.item(), 6))
print(torch.allclose(flow.inverse(z), x))
base = torch.distributions.MultivariateNormal(torch.zeros(3), torch.eye(3))
log_px = base.log_prob(z) + logdet
nll = -log_px.mean()
nll.backward()
print(round(nll.item(), 6))
print(flow.raw.grad.round(decimals=5))
print(flow.log_diag.grad.round(decimals=5), flow.shift.grad.round(decimals=5))
Lm = flow.matrix().detach()
Xr = torch.linalg.solve_triangular(Lm, torch.eye(3), upper=False, left=False)
print(torch.allclose(Xr @ Lm, torch.eye(3)), torch.linalg.solve_triangular(Lm.T, torch.ones(3, 1), upper=True, unitriangular=True).squeeze())
print(round(-0.5 * 3 * math.log(2 * math.pi), 6))
