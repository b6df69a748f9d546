# forces as minus the gradient of a pair potential (Lennard-Jones) for three particles
import torch

pos = torch.tensor([[0.0, 0.0], [1.1, 0.0], [0.5, 1.0]], requires_grad=True)
def energy(p):
    i, j = torch.triu_indices(3, 3, 1)
    r = (p[i] - p[j]).norm(dim=1)
    return (4 * ((1 / r) ** 12 - (1 / r) ** 6)).sum()
E = energy(pos)
(F,) = torch.autograd.grad(-E, pos)
print(E)
print(F)
print(torch.round(F.sum(0), decimals=10) + 0.0)
H = torch.autograd.functional.hessian(energy, pos.detach())
print(H.shape, torch.allclose(H.reshape(6, 6), H.reshape(6, 6).T))
