import torch
from torch.autograd.functional import jacobian

dt = 0.05


def dynamics(state, u):
    theta, omega = state[0], state[1]
    domega = -9.81 * torch.sin(theta) - 0.1 * omega + u[0]
    return torch.stack([theta + dt * omega, omega + dt * domega])


x_eq = torch.tensor([torch.pi, 0.0])
u_eq = torch.tensor([0.0])
A, B = jacobian(dynamics, (x_eq, u_eq))
print(A.round(decimals=5), B.round(decimals=5))
Q = torch.diag(torch.tensor([10.0, 1.0]))
R = torch.tensor([[0.1]])
P = Q.clone()
for _ in range(500):
    K = torch.linalg.solve(R + B.T @ P @ B, B.T @ P @ A)
    P = Q + A.T @ P @ (A - B @ K)
print(K.round(decimals=4))
closed = A - B @ K
print(torch.linalg.eigvals(closed).abs().max() < 1)
x = torch.tensor([torch.pi - 0.3, 0.2])
traj = []
for t in range(80):
    u = -K @ (x - x_eq)
    x = dynamics(x, u)
    traj.append((x - x_eq).norm().item())
print([round(v, 5) for v in traj[::20]], traj[-1] < 1e-2)
# gradient of the closed-loop cost with respect to the gain matrix
Kp = K.clone().requires_grad_(True)
x = torch.tensor([torch.pi - 0.3, 0.2])
cost = 0.0
for t in range(30):
    u = -Kp @ (x - x_eq)
    cost = cost + ((x - x_eq) @ Q @ (x - x_eq)) + (u @ R @ u)
    x = dynamics(x, u)
cost.backward()
print(round(cost.item(), 6), Kp.grad.shape, Kp.grad.abs().max().item() < 1.0)
