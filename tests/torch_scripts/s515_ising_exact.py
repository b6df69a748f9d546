import itertools
import torch

# Exact enumeration of a 3x3 Ising model: gradients of log Z give expectations.
L = 3
spins = torch.tensor(list(itertools.product([-1.0, 1.0], repeat=L * L))).view(-1, L, L)
print(spins.shape, spins.dtype)
right = (spins * torch.roll(spins, shifts=-1, dims=2)).sum(dim=(1, 2))
down = (spins * torch.roll(spins, shifts=-1, dims=1)).sum(dim=(1, 2))
interaction = right + down
magnet = spins.sum(dim=(1, 2))
J = torch.tensor(0.4, requires_grad=True)
h = torch.tensor(0.1, requires_grad=True)
logZ = torch.logsumexp(J * interaction + h * magnet, dim=0)
dJ, dh = torch.autograd.grad(logZ, (J, h), create_graph=True)
print(round(logZ.item(), 6), round(dJ.item(), 6), round(dh.item(), 6))
p = torch.softmax(J * interaction + h * magnet, dim=0)
print(torch.allclose(dJ, (p * interaction).sum()), torch.allclose(dh, (p * magnet).sum()))
chi, = torch.autograd.grad(dh, h)
var_m = (p * magnet ** 2).sum() - (p * magnet).sum() ** 2
print(round(chi.item(), 6), torch.allclose(chi, var_m))
for Jv in (0.1, 0.44, 1.0):
    with torch.no_grad():
        q = torch.softmax(Jv * interaction, dim=0)
        print(Jv, round((q * magnet.abs()).sum().item() / (L * L), 5))
top = torch.topk(J.detach() * interaction + h.detach() * magnet, 3)
print(top.values, spins[top.indices[0]])
