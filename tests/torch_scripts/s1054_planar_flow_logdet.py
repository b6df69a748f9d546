# Planar normalizing flow: f(z) = z + u h(w^T z + b), log|det J| = log|1 + u^T h'(.) w|
import torch
import torch.nn as nn

class Planar(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.u = nn.Parameter(torch.full((d,), 0.5))
        self.w = nn.Parameter(torch.linspace(-1, 1, d))
        self.b = nn.Parameter(torch.tensor(0.1))

    def forward(self, z):
        a = z @ self.w + self.b
        f = z + self.u * torch.tanh(a).unsqueeze(-1)
        psi = (1 - torch.tanh(a) ** 2).unsqueeze(-1) * self.w
        logdet = torch.log(torch.abs(1 + psi @ self.u))
        return f, logdet

flow = Planar(3)
z = torch.arange(12.0).view(4, 3) / 10
f, ld = flow(z)
print(f)
print(ld)
J = torch.autograd.functional.jacobian(lambda v: flow(v.unsqueeze(0))[0].squeeze(0), z[1])
print(torch.logdet(J), ld[1])
base = torch.distributions.Normal(0.0, 1.0)
nll = -(base.log_prob(f).sum(-1) + ld).mean()
nll.backward()
print(nll, flow.u.grad, flow.b.grad)
