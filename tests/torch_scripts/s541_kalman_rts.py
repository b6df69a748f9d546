import torch

torch.set_printoptions(precision=4)
dt = 0.1
F = torch.tensor([[1.0, dt], [0.0, 1.0]])
H = torch.tensor([[1.0, 0.0]])
Q = 0.01 * torch.tensor([[dt ** 3 / 3, dt ** 2 / 2], [dt ** 2 / 2, dt]])
R = torch.tensor([[0.05]])
t = torch.arange(40) * dt
zs = (torch.sin(t) + 0.1 * torch.cos(7 * t)).unsqueeze(-1)

x = torch.zeros(2)
P = torch.eye(2)
xs_f, Ps_f, xs_p, Ps_p = [], [], [], []
loglik = torch.tensor(0.0)
for z in zs:
    x_pred = F @ x
    P_pred = F @ P @ F.T + Q
    S = H @ P_pred @ H.T + R
    K = P_pred @ H.T @ torch.linalg.inv(S)
    innov = z - H @ x_pred
    x = x_pred + K @ innov
    P = (torch.eye(2) - K @ H) @ P_pred
    loglik = loglik + torch.distributions.Normal(0.0, S.squeeze().sqrt()).log_prob(innov.squeeze())
    xs_p.append(x_pred); Ps_p.append(P_pred); xs_f.append(x); Ps_f.append(P)

xs_s = [xs_f[-1]]
Ps_s = [Ps_f[-1]]
for k in range(len(zs) - 2, -1, -1):
    C = Ps_f[k] @ F.T @ torch.linalg.inv(Ps_p[k + 1])
    xs_s.insert(0, xs_f[k] + C @ (xs_s[0] - xs_p[k + 1]))
    Ps_s.insert(0, Ps_f[k] + C @ (Ps_s[0] - Ps_p[k + 1]) @ C.mT)

Xf = torch.stack(xs_f)
Xs = torch.stack(xs_s)
print(Xf.shape, Xs.shape)
print(Xf[::10])
print(Xs[::10])
print(torch.stack(Ps_s)[-1], torch.stack(Ps_s)[0].diagonal())
print(f"loglik {loglik.item():.4f}")
print(bool((torch.stack(Ps_s).diagonal(dim1=1, dim2=2) <= torch.stack(Ps_f).diagonal(dim1=-2, dim2=-1) + 1e-12).all()))
