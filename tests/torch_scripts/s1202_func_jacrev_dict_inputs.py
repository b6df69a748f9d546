# jacrev over a dict of parameters returns a dict of Jacobians
import torch
from torch.func import jacrev, jacfwd

def f(p, x):
    return torch.tanh(x @ p["w"] + p["b"])

p = {"w": torch.tensor([[1.0, 0.5], [-0.5, 2.0]]), "b": torch.tensor([0.1, -0.2])}
x = torch.tensor([0.3, 0.7])
J = jacrev(f)(p, x)
print(sorted(J), J["w"].shape, J["b"].shape)
print(J["b"])
Jf = jacfwd(f)(p, x)
print(torch.allclose(J["w"], Jf["w"]), torch.allclose(J["b"], Jf["b"]))
Jx = jacrev(f, argnums=1)(p, x)
print(Jx)
