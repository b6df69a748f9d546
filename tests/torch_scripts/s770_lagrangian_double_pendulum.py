# Lagrangian mechanics with autograd: equations of motion of a double pendulum from L(q, qdot)
# by jacobian/hessian, integrated with RK4; energy conservation check
import math
import torch
from torch.autograd.functional import jacobian, hessian

m1, m2, l1, l2, g = 1.0, 1.0, 1.0, 1.0, 9.81


def lagrangian(q, qd):
    t1, t2 = q[0], q[1]
    w1, w2 = qd[0], qd[1]
    T = 0.5 * (m1 + m2) * l1 ** 2 * w1 ** 2 + 0.5 * m2 * l2 ** 2 * w2 ** 2 + m2 * l1 * l2 * w1 * w2 * torch.cos(t1 - t2)
    V = -(m1 + m2) * g * l1 * torch.cos(t1) - m2 * g * l2 * torch.cos(t2)
    return T - V


def energy(q, qd):
    t1, t2 = q[0], q[1]
    w1, w2 = qd[0], qd[1]
    T = 0.5 * (m1 + m2) * l1 ** 2 * w1 ** 2 + 0.5 * m2 * l2 ** 2 * w2 ** 2 + m2 * l1 * l2 * w1 * w2 * torch.cos(t1 - t2)
    V = -(m1 + m2) * g * l1 * torch.cos(t1) - m2 * g * l2 * torch.cos(t2)
    return T + V


def qdd(q, qd):
    # Euler-Lagrange: M qdd = dL/dq - C qd with M = d2L/dqd2, C = d2L/dqd dq
    dLdq = jacobian(lambda q_: lagrangian(q_, qd), q)
    M = hessian(lambda qd_: lagrangian(q, qd_), qd)
    C = jacobian(lambda q_: jacobian(lambda qd_: lagrangian(q_, qd_), qd, create_graph=True), q)
    return torch.linalg.solve(M, dLdq - C @ qd)


def f(state):
    q, qd = state[:2], state[2:]
    return torch.cat([qd, qdd(q, qd)])


state = torch.tensor([math.pi / 2, math.pi / 2, 0.0, 0.0])
E0 = energy(state[:2], state[2:])
print(f"E0 = {E0.item():.6f}", qdd(state[:2], state[2:]))
dt = 0.01
for step in range(100):
    k1 = f(state)
    k2 = f(state + dt / 2 * k1)
    k3 = f(state + dt / 2 * k2)
    k4 = f(state + dt * k3)
    state = state + dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
    if step % 25 == 24:
        E = energy(state[:2], state[2:])
        print(f"t={dt * (step + 1):.2f} theta={state[:2].tolist()[0]:.5f},{state[1].item():.5f} dE={(E - E0).item():.2e}")
print(state.round(decimals=4))
