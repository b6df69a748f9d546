import math
import torch

def H(q, p, k=2.0, m=1.5):
    return 0.5 * (p ** 2).sum() / m + 0.5 * k * (q ** 2).sum() + 0.1 * (q ** 4).sum()

def dH(q, p):
    q = q.detach().requires_grad_(True)
    p = p.detach().requires_grad_(True)
    e = H(q, p)
    dq, dp = torch.autograd.grad(e, (q, p))
    return dq, dp

def leapfrog(q, p, dt, n):
    energies = []
    for _ in range(n):
        dq, _ = dH(q, p)
        p = p - 0.5 * dt * dq
        _, dp = dH(q, p)
        q = q + dt * dp
        dq, _ = dH(q, p)
        p = p - 0.5 * dt * dq
        energies.append(H(q, p).item())
    return q, p, energies

q0 = torch.tensor([1.0, 0.0]); p0 = torch.tensor([0.0, 0.5])
q, p, E = leapfrog(q0, p0, 0.05, 40)
print(q, p)
print([f"{e:.8f}" for e in E[::8]], f"{max(E) - min(E):.3e}")
# sensitivity of the final position to the initial momentum through the integrator
def final_q(p_init):
    q, p = q0.clone(), p_init
    dt = 0.1
    for _ in range(10):
        qq = q.requires_grad_(True) if not q.requires_grad else q
        dq = torch.autograd.grad(H(qq, p), qq, create_graph=True)[0]
        p = p - dt * dq
        pp = p
        dp = torch.autograd.grad(H(q, pp), pp, create_graph=True)[0]
        q = q + dt * dp
    return q
J = torch.autograd.functional.jacobian(final_q, p0)
print(J)
print(torch.linalg.det(J))
pp = p0.clone().requires_grad_(True)
qf = final_q(pp)
(g,) = torch.autograd.grad(qf.sum(), pp)
print(qf, g)
omega = math.sqrt(2.0 / 1.5)
print(f"{omega:.6f}", f"{2 * math.pi / omega:.6f}")
