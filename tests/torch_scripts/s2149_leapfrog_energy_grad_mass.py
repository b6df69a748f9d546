import torch

def leapfrog(q, p, m, k, dt, n):
    for _ in range(n):
        p = p - 0.5 * dt * k * q
        q = q + dt * p / m
        p = p - 0.5 * dt * k * q
    return q, p

m = torch.tensor(2.0, requires_grad=True)
k = torch.tensor(3.0, requires_grad=True)
q0, p0 = torch.tensor(1.0), torch.tensor(0.0)
q, p = leapfrog(q0, p0, m, k, 0.05, 100)
E0 = 0.5 * p0 ** 2 / m + 0.5 * k * q0 ** 2
E = 0.5 * p ** 2 / m + 0.5 * k * q ** 2
print(round(q.item(), 6), round(p.item(), 6))
print(round((E - E0).abs().item(), 8) < 1e-3)
dq_dm, dq_dk = torch.autograd.grad(q, (m, k), retain_graph=True)
print(round(dq_dm.item(), 5), round(dq_dk.item(), 5))
omega = torch.sqrt(k / m)
exact = torch.cos(omega * 5.0)
print(round(exact.item(), 4), round(q.item(), 4))
ge = torch.autograd.grad(exact, (m, k))
print([round(v.item(), 4) for v in ge])
