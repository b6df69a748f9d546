# one Kalman filter predict/update step; gradient of the log-likelihood w.r.t. noise scales
import torch

F_ = torch.tensor([[1.0, 1.0], [0.0, 1.0]])
H = torch.tensor([[1.0, 0.0]])
log_q = torch.tensor(-1.0, requires_grad=True)
log_r = torch.tensor(0.0, requires_grad=True)
m = torch.tensor([0.0, 1.0])
P = torch.eye(2)
ll = torch.zeros(())
for z in [1.2, 1.9, 3.1, 4.2]:
    Q = log_q.exp() * torch.eye(2)
    R = log_r.exp() * torch.eye(1)
    m = F_ @ m
    P = F_ @ P @ F_.T + Q
    S = H @ P @ H.T + R
    K = P @ H.T @ torch.linalg.inv(S)
    innov = torch.tensor([z]) - H @ m
    ll = ll + torch.distributions.MultivariateNormal(torch.zeros(1), S).log_prob(innov)
    m = m + K @ innov
    P = (torch.eye(2) - K @ H) @ P
print(m.detach(), P.detach())
ll.backward()
print(round(ll.item(), 6), log_q.grad, log_r.grad)
