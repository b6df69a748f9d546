# Fitting a linear-Gaussian state space model by maximizing the Kalman-filter likelihood:
# innovations' log-probabilities from MultivariateNormal(scale_tril=cholesky(S)), noise
# variances parameterized by log, transition by tanh (stable); Adam on the parameters
import numpy as np
import torch
import torch.nn as nn
from torch.distributions import MultivariateNormal

rng = np.random.default_rng(681)
T = 30
A_true = np.array([[0.9, 0.1], [0.0, 0.8]])
x = np.zeros(2)
ys = []
for t in range(T):
    x = A_true @ x + 0.3 * rng.standard_normal(2)
    ys.append(x[:1] + 0.2 * rng.standard_normal(1))
Y = torch.from_numpy(np.array(ys))


class LGSSM(nn.Module):
    def __init__(self):
        super().__init__()
        self.a_raw = nn.Parameter(torch.tensor([[1.0, 0.0], [0.0, 1.0]]))
        self.log_q = nn.Parameter(torch.tensor(-1.0))
        self.log_r = nn.Parameter(torch.tensor(-1.0))
        self.register_buffer("H", torch.tensor([[1.0, 0.0]]))

    def log_likelihood(self, y):
        A = torch.tanh(self.a_raw)
        Q = self.log_q.exp() * torch.eye(2)
        R = self.log_r.exp() * torch.eye(1)
        m, P = torch.zeros(2), torch.eye(2)
        ll = 0.0
        for t in range(y.size(0)):
            m, P = A @ m, A @ P @ A.T + Q
            S = self.H @ P @ self.H.T + R
            ll = ll + MultivariateNormal(self.H @ m, scale_tril=torch.linalg.cholesky(S)).log_prob(y[t])
            K = P @ self.H.T @ torch.linalg.inv(S)
            m = m + K @ (y[t] - self.H @ m)
            P = (torch.eye(2) - K @ self.H) @ P
        return ll


model = LGSSM()
opt = torch.optim.Adam(model.parameters(), lr=0.05)
for it in range(12):
    opt.zero_grad()
    nll = -model.log_likelihood(Y)
    nll.backward()
    opt.step()
    if it % 3 == 2:
        print(it, f"{nll.item():.6f}", f"q {model.log_q.exp().item():.5f} r {model.log_r.exp().item():.5f}")
print(torch.tanh(model.a_raw).detach().numpy().round(4))
print(model.a_raw.grad.numpy().round(5))
d = MultivariateNormal(torch.zeros(2), covariance_matrix=torch.tensor([[2.0, 0.5], [0.5, 1.0]]))
print(d.scale_tril.numpy().round(5), round(d.entropy().item(), 6), d.log_prob(torch.ones(2)).item().__round__(6))
