import torch

# a small matrix-product state: contract to amplitudes and a norm, differentiate the cores
d, chi, n = 2, 3, 4
cores = []
for i in range(n):
    left = 1 if i == 0 else chi
    right = 1 if i == n - 1 else chi
    c = torch.cos(torch.arange(left * d * right, dtype=torch.float64) * (i + 1) * 0.7).view(left, d, right)
    cores.append(c.requires_grad_())

def amplitude(bits):
    m = cores[0][:, bits[0], :]
    for c, b in zip(cores[1:], bits[1:]):
        m = torch.einsum("ab,bc->ac", m, c[:, b, :])
    return m.squeeze()

def norm_sq():
    env = torch.einsum("asb,asc->bc", cores[0], cores[0])
    for c in cores[1:]:
        env = torch.einsum("ab,asc,bsd->cd", env, c, c)
    return env.squeeze()

print(round(amplitude([0, 1, 1, 0]).item(), 6))
full = torch.einsum("asb,btc,cud,dve->stuv", *cores).squeeze()
print(full.shape, torch.allclose(full[0, 1, 1, 0], amplitude([0, 1, 1, 0])))
N = norm_sq()
print(round(N.item(), 5), torch.allclose(N, (full ** 2).sum()))
N.backward()
print([tuple(c.grad.shape) for c in cores], cores[1].grad.sum().round(decimals=4))
print(torch.einsum("ij,jk,ki->", torch.eye(2), torch.ones(2, 2), torch.eye(2)))
print(torch.einsum("i,i,i->", torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0]), torch.tensor([5.0, 6.0])))
