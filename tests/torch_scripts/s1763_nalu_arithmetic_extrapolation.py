# Neural arithmetic logic unit (Trask et al.): W = tanh(W_hat) * sigmoid(M_hat), an
# additive path and a multiplicative path in log space with a learned gate; trained on
# x1 + x2 and x1 * x2 and tested on larger inputs (extrapolation)
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

rng = np.random.default_rng(1101)


class NAC(nn.Module):
    def __init__(self, i, o):
        super().__init__()
        self.W_hat = nn.Parameter(torch.from_numpy(rng.normal(0, 0.5, (o, i))))
        self.M_hat = nn.Parameter(torch.from_numpy(rng.normal(0, 0.5, (o, i))))

    def forward(self, x):
        return F.linear(x, torch.tanh(self.W_hat) * torch.sigmoid(self.M_hat))


class NALU(nn.Module):
    def __init__(self, i, o, eps=1e-7):
        super().__init__()
        self.nac = NAC(i, o)
        self.G = nn.Parameter(torch.from_numpy(rng.normal(0, 0.5, (o, i))))
        self.eps = eps

    def forward(self, x):
        a = self.nac(x)
        g = torch.sigmoid(F.linear(x, self.G))
        m = torch.exp(self.nac(torch.log(x.abs() + self.eps)))
        return g * a + (1 - g) * m


X = torch.from_numpy(rng.uniform(0.5, 3, (64, 2)))
Xt = torch.from_numpy(rng.uniform(5, 10, (8, 2)))
for name, fn in (("add", lambda v: v.sum(1, keepdim=True)), ("mul", lambda v: v.prod(1, keepdim=True))):
    model = NALU(2, 1)
    opt = torch.optim.Adam(model.parameters(), lr=0.05)
    for it in range(150):
        opt.zero_grad()
        loss = F.mse_loss(model(X), fn(X))
        loss.backward()
        opt.step()
    with torch.no_grad():
        rel = ((model(Xt) - fn(Xt)).abs() / fn(Xt)).mean()
        W = torch.tanh(model.nac.W_hat) * torch.sigmoid(model.nac.M_hat)
    print(name, f"train {loss.item():.6f} extrap rel err {rel.item():.4f}", W.numpy().round(3))
print(torch.sigmoid(F.linear(Xt[:2], model.G)).detach().view(-1).numpy().round(4))
