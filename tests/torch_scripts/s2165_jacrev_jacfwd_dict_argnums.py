import torch
from torch.func import jacrev, jacfwd

def f(params, x):
    return torch.tanh(params["W"] @ x + params["b"]) * params["s"]

params = {"W": torch.tensor([[1.0, -0.5], [0.3, 0.8], [0.0, 1.0]]), "b": torch.tensor([0.1, 0.0, -0.2]), "s": torch.tensor(2.0)}
x = torch.tensor([0.5, -1.0])
jr = jacrev(f)(params, x)
jf = jacfwd(f)(params, x)
print({k: tuple(v.shape) for k, v in jr.items()})
print(all(torch.allclose(jr[k], jf[k]) for k in jr))
print(jr["s"].round(decimals=5))
jx = jacrev(f, argnums=1)(params, x)
print(jx.round(decimals=5))
both = jacfwd(f, argnums=(0, 1))(params, x)
print(type(both).__name__, len(both), torch.allclose(both[1], jx))
def g(a, b):
    return a * b, (a + b).sum()
ja = jacrev(g, argnums=(0, 1))(torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0]))
print(ja[0][0], ja[1][1])
hess = jacfwd(jacrev(lambda v: (v ** 3).sum() + v[0] * v[1]))(torch.tensor([1.0, 2.0]))
print(hess)
