import torch
from torch.autograd.functional import jacobian, hessian, vjp, jvp, hvp

def pendulum(state):
    theta, omega = state[..., 0], state[..., 1]
    return torch.stack([omega, -9.81 * torch.sin(theta) - 0.1 * omega], dim=-1)

s = torch.tensor([0.3, -0.2])
print(jacobian(pendulum, s))
print(jacobian(pendulum, s, vectorize=True))
print(jacobian(pendulum, s, vectorize=True, strategy="forward-mode"))
print(jacobian(pendulum, s, create_graph=True).requires_grad)

def two(a, b):
    return a * b.sum(), (a ** 2).mean() + b
A, B = torch.tensor([1.0, 2.0]), torch.tensor([3.0, -1.0, 0.5])
J = jacobian(two, (A, B))
print(type(J).__name__, len(J), [type(j).__name__ for j in J])
for row in J:
    for blk in row:
        print(blk.shape, blk)
J2 = jacobian(two, (A, B), vectorize=True)
print(all(torch.allclose(x, y) for r1, r2 in zip(J, J2) for x, y in zip(r1, r2)))

def energy(q):
    return 0.5 * (q ** 2).sum() + q[0] * q[1] ** 2 + torch.cos(q).prod()
q = torch.tensor([0.1, 0.7, -0.4])
print(hessian(energy, q))
print(hessian(energy, q, vectorize=True))
print(torch.allclose(hessian(energy, q, vectorize=True, outer_jacobian_strategy="forward-mode"), hessian(energy, q)))
print(hessian(lambda x, y: (x * y ** 2).sum(), (A, A + 1)))
out, v = vjp(pendulum, s, torch.tensor([1.0, 1.0]))
print(out, v)
out, t = jvp(pendulum, s, torch.tensor([1.0, 0.0]))
print(out, t)
print(hvp(energy, q, torch.ones(3)))
print(jvp(lambda x: x.exp().sum(), torch.tensor([0.0, 1.0]), torch.tensor([1.0, 2.0])))
print(vjp(lambda x: (x ** 3).sum(), torch.tensor([2.0, 3.0])))
print(jacobian(lambda x: x.sum(), torch.tensor([1.0, 2.0, 3.0])).shape)
print(jacobian(lambda x: x @ x.T, torch.eye(2)).shape)
