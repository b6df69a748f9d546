import math
import torch

F = torch.tensor([[1.0, 1.0], [0.0, 1.0]])
H = torch.tensor([[1.0, 0.0]])
obs = torch.tensor([0.9, 2.1, 2.9, 4.2, 5.1, 5.8])
log_q = torch.tensor(-2.0, requires_grad=True)
log_r = torch.tensor(-1.0, requires_grad=True)


def kalman(log_q, log_r):
    Q = torch.eye(2) * log_q.exp()
    R = log_r.exp().reshape(1, 1)
    m = torch.zeros(2, 1)
    P = torch.eye(2) * 10.0
    ll = torch.zeros(())
    for y in obs:
        m = F @ m
        P = F @ P @ F.T + Q
        S = H @ P @ H.T + R
        v = y.reshape(1, 1) - H @ m
        K = torch.linalg.solve(S, H @ P).T
        ll = ll - 0.5 * (torch.logdet(S) + v.T @ torch.linalg.inv(S) @ v + math.log(2 * math.pi)).squeeze()
        m = m + K @ v
        P = (torch.eye(2) - K @ H) @ P
    return ll, m, P


ll, m, P = kalman(log_q, log_r)
ll.backward()
print(round(ll.item(), 6), m.detach().squeeze().round(decimals=4), P.detach().round(decimals=5))
print(round(log_q.grad.item(), 6), round(log_r.grad.item(), 6))
opt = torch.optim.Adam([log_q, log_r], lr=0.1)
for _ in range(20):
    opt.zero_grad()
    nll = -kalman(log_q, log_r)[0]
    nll.backward()
    opt.step()
print(round(nll.item(), 4), round(log_q.item(), 3), round(log_r.item(), 3))
print(torch.linalg.eigvalsh(P.detach()).round(decimals=5), torch.linalg.cholesky(P.detach()).round(decimals=5))
