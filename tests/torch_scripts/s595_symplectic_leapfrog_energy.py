import torch


def potential(q):
    return 0.5 * (q ** 2).sum(-1) + 0.1 * (q ** 4).sum(-1)


def force(q):
    q = q.detach().requires_grad_(True)
    (g,) = torch.autograd.grad(potential(q).sum(), q)
    return -g


def leapfrog(q, p, h, n):
    p = p + 0.5 * h * force(q)
    for i in range(n):
        q = q + h * p
        if i < n - 1:
            p = p + h * force(q)
    p = p + 0.5 * h * force(q)
    return q, p


def euler(q, p, h, n):
    for _ in range(n):
        q, p = q + h * p, p + h * force(q)
    return q, p


q0 = torch.tensor([[1.0, 0.0], [0.5, 0.5]])
p0 = torch.tensor([[0.0, 1.0], [-0.2, 0.3]])
H0 = potential(q0) + 0.5 * (p0 ** 2).sum(-1)
ql, pl = leapfrog(q0, p0, 0.05, 400)
qe, pe = euler(q0, p0, 0.05, 400)
Hl = potential(ql) + 0.5 * (pl ** 2).sum(-1)
He = potential(qe) + 0.5 * (pe ** 2).sum(-1)
print(H0, (Hl - H0).abs().max() < 1e-2, (He - H0).min() > 0.1)
print(ql.round(decimals=4), pl.round(decimals=4))
qb, pb = leapfrog(ql, -pl, 0.05, 400)
print(torch.allclose(qb, q0, atol=1e-9), torch.allclose(-pb, p0, atol=1e-9))
L0 = q0[:, 0] * p0[:, 1] - q0[:, 1] * p0[:, 0]
L1 = ql[:, 0] * pl[:, 1] - ql[:, 1] * pl[:, 0]
print(L0, (L1 - L0).abs().max().item() < 1e-9)
J = torch.autograd.functional.jacobian(lambda z: torch.cat(leapfrog(z[:2].unsqueeze(0), z[2:].unsqueeze(0), 0.1, 5), 1).squeeze(0), torch.cat([q0[0], p0[0]]))
print(J.shape, torch.linalg.det(J).round(decimals=8))
