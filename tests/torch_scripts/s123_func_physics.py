import torch
from torch.func import grad, jacrev, jacfwd, hessian, vmap, grad_and_value

# Lagrangian mechanics of a double spring: L = T - V, Euler-Lagrange by autodiff
m = torch.tensor([1.0, 2.0])
k = torch.tensor([3.0, 1.5])

def lagrangian(q, qd):
    T = 0.5 * (m * qd ** 2).sum()
    V = 0.5 * k[0] * q[0] ** 2 + 0.5 * k[1] * (q[1] - q[0]) ** 2
    return T - V

def accel(q, qd):
    Mq = jacfwd(jacrev(lagrangian, argnums=1), argnums=1)(q, qd)
    Cq = jacfwd(jacrev(lagrangian, argnums=1), argnums=0)(q, qd)
    dLdq = grad(lagrangian, argnums=0)(q, qd)
    return torch.linalg.solve(Mq, dLdq - Cq @ qd)

q = torch.tensor([0.5, -0.2]); qd = torch.tensor([0.0, 0.1])
print("mass matrix", jacfwd(jacrev(lagrangian, argnums=1), argnums=1)(q, qd))
print("accel", accel(q, qd))
dt = 0.01
for step in range(5):
    a = accel(q, qd)
    qd = qd + dt * a
    q = q + dt * qd
    print(step, q, qd, f"{lagrangian(q, qd).item():.8f}")

# batched potentials with vmap
def potential(x):
    return (x ** 4).sum() - 2 * (x ** 2).sum() + x.prod()
xs = torch.tensor([[0.1, 0.2], [1.0, -1.0], [0.5, 0.5]])
print("forces", vmap(grad(potential))(xs))
print("hessians", vmap(hessian(potential))(xs))
print("jacrev==jacfwd", torch.allclose(vmap(jacrev(grad(potential)))(xs), vmap(jacfwd(grad(potential)))(xs)))
g, v = grad_and_value(potential)(xs[1])
print(g, v)
print(vmap(potential)(xs), vmap(potential, in_dims=1)(xs.T))
print(vmap(lambda a, b: a @ b, in_dims=(0, None))(xs, torch.tensor([1.0, 2.0])))
print(jacrev(lambda x: x.sin() * x, argnums=0)(torch.tensor([0.0, 1.0, 2.0])))
print(vmap(vmap(torch.dot))(torch.ones(2, 3, 4), torch.arange(24.0).reshape(2, 3, 4)))
