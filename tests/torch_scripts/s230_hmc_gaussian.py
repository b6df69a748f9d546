import math
import torch

# HMC on a correlated 2-D Gaussian; "random" momenta and uniforms from a fixed sequence
Sigma = torch.tensor([[1.0, 0.8], [0.8, 1.0]])
P = torch.linalg.inv(Sigma)

def U(q):
    return 0.5 * q @ P @ q

def grad_U(q):
    q = q.detach().requires_grad_(True)
    (g,) = torch.autograd.grad(U(q), q)
    return g

def leapfrog(q, p, eps, L):
    p = p - 0.5 * eps * grad_U(q)
    for i in range(L):
        q = q + eps * p
        if i < L - 1:
            p = p - eps * grad_U(q)
    p = p - 0.5 * eps * grad_U(q)
    return q, -p

q = torch.tensor([2.0, -2.0])
accepted, samples = 0, []
for k in range(150):
    p0 = torch.tensor([math.sin(1.3 * k + 0.2), math.cos(2.1 * k + 0.5)]) * 1.2
    qn, pn = leapfrog(q, p0, 0.15, 10)
    H0 = U(q) + 0.5 * (p0 ** 2).sum()
    H1 = U(qn) + 0.5 * (pn ** 2).sum()
    u = (math.sin(7.7 * k) + 1) / 2
    if u < torch.exp(H0 - H1).clamp(max=1.0).item():
        q = qn
        accepted += 1
    samples.append(q)
S = torch.stack(samples[50:])
print(accepted, S.shape, S.mean(0).round(decimals=3))
print(torch.cov(S.T).round(decimals=3), torch.corrcoef(S.T)[0, 1].round(decimals=3))
q0 = torch.tensor([0.3, -0.1])
p0 = torch.tensor([1.0, 0.5])
qT, pT = leapfrog(q0, p0, 0.1, 20)
qB, pB = leapfrog(qT, pT, 0.1, 20)
print(torch.allclose(qB, q0, atol=1e-12), torch.allclose(-pB, p0, atol=1e-12))
print(round((U(q0) + 0.5 * p0 @ p0 - U(qT) - 0.5 * pT @ pT).item(), 8))
J = torch.autograd.functional.jacobian(lambda z: torch.cat(leapfrog(z[:2], z[2:], 0.1, 5)), torch.cat([q0, p0]))
print(J.shape, round(torch.linalg.det(J).item(), 8))
