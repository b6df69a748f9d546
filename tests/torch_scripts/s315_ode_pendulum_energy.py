import torch

# Lagrangian mechanics by autograd: double pendulum accelerations from L(q, qdot)
g, m1, m2, l1, l2 = 9.81, 1.0, 1.0, 1.0, 1.0


def lagrangian(q, qd):
    t1, t2 = q[0], q[1]
    w1, w2 = qd[0], qd[1]
    T = 0.5 * (m1 + m2) * l1 ** 2 * w1 ** 2 + 0.5 * m2 * l2 ** 2 * w2 ** 2 \
        + m2 * l1 * l2 * w1 * w2 * torch.cos(t1 - t2)
    V = -(m1 + m2) * g * l1 * torch.cos(t1) - m2 * g * l2 * torch.cos(t2)
    return T - V


def accel(q, qd):
    # Euler-Lagrange: M qdd = dL/dq - (d2L/dqd dq) qd
    Hqd = torch.autograd.functional.hessian(lambda v: lagrangian(q, v), qd)
    gq = torch.autograd.functional.jacobian(lambda u: lagrangian(u, qd), q)
    mixed = torch.autograd.functional.jacobian(
        lambda u: torch.autograd.functional.jacobian(lambda v: lagrangian(u, v), qd, create_graph=True), q)
    return torch.linalg.solve(Hqd, gq - mixed @ qd)


def energy(q, qd):
    t1, t2 = q
    w1, w2 = qd
    T = 0.5 * (m1 + m2) * l1 ** 2 * w1 ** 2 + 0.5 * m2 * l2 ** 2 * w2 ** 2 \
        + m2 * l1 * l2 * w1 * w2 * torch.cos(t1 - t2)
    V = -(m1 + m2) * g * l1 * torch.cos(t1) - m2 * g * l2 * torch.cos(t2)
    return T + V


q = torch.tensor([1.0, 0.5])
qd = torch.tensor([0.0, 0.0])
E0 = energy(q, qd)
print([round(v, 6) for v in accel(q, qd).tolist()])
dt = 0.005
for step in range(100):
    a = accel(q, qd)
    qd_half = qd + 0.5 * dt * a
    q = q + dt * qd_half
    qd = qd_half + 0.5 * dt * accel(q, qd_half)
print([round(v, 4) for v in q.tolist()], [round(v, 4) for v in qd.tolist()])
print(abs((energy(q, qd) - E0).item()) < 1e-2)
J = torch.autograd.functional.jacobian(accel, (q, qd))
print(J[0].shape, J[1].shape)
