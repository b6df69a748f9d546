# equations of motion from a Lagrangian with autograd (pendulum), integrated with semi-implicit Euler
import torch

def L(q, qd, g=9.81, l=1.0):
    return 0.5 * l ** 2 * qd ** 2 + g * l * torch.cos(q)

def accel(q, qd):
    q = q.detach().requires_grad_(); qd = qd.detach().requires_grad_()
    lag = L(q, qd)
    dLdq, dLdqd = torch.autograd.grad(lag, (q, qd), create_graph=True)
    d2 = torch.autograd.grad(dLdqd, qd, retain_graph=True)[0]
    mixed = torch.autograd.grad(dLdqd, q, allow_unused=True, materialize_grads=True)[0]
    return ((dLdq - mixed * qd) / d2).detach()

q, qd = torch.tensor(0.5), torch.tensor(0.0)
for _ in range(100):
    qd = qd + 0.01 * accel(q, qd)
    q = q + 0.01 * qd
print(round(q.item(), 8), round(qd.item(), 8))
print(round((0.5 * qd ** 2 - 9.81 * torch.cos(q)).item(), 6))
