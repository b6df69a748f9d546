import torch
import torch.nn as nn
from torch.func import functional_call, hessian, jacrev, vmap

model = nn.Sequential(nn.Linear(2, 3), nn.Tanh(), nn.Linear(3, 1))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float64) + 2 * i).reshape(p.shape) * 0.5)
X = torch.tensor([[0.5, -1.0], [1.0, 0.5], [-0.3, 0.8], [0.0, 0.0]])
Y = torch.tensor([[0.2], [-0.4], [0.9], [0.1]])
params = {k: v.detach() for k, v in model.named_parameters()}
names = list(params)

def loss_fn(p):
    return ((functional_call(model, p, (X,)) - Y) ** 2).mean()

H = hessian(loss_fn)(params)
print(type(H).__name__, list(H.keys()), list(H["0.weight"].keys()))
print(H["0.weight"]["0.weight"].shape, H["2.bias"]["2.bias"], H["0.bias"]["2.weight"].shape)
flat = torch.cat([p.reshape(-1) for p in params.values()])
sizes = [p.numel() for p in params.values()]
shapes = [p.shape for p in params.values()]
def loss_flat(v):
    chunks = torch.split(v, sizes)
    return loss_fn({n: c.reshape(s) for n, c, s in zip(names, chunks, shapes)})
Hf = torch.autograd.functional.hessian(loss_flat, flat)
print(Hf.shape, torch.allclose(Hf, Hf.T), f"{Hf.trace().item():.10f}")
ev = torch.linalg.eigvalsh(Hf)
print([f"{e:.6f}" for e in ev.tolist()[-3:]], int((ev < -1e-10).sum()))
print(torch.allclose(Hf[-1, -1], H["2.bias"]["2.bias"].reshape(())))
J = vmap(jacrev(lambda p, x: functional_call(model, p, (x.unsqueeze(0),)).squeeze()), in_dims=(None, 0))(params, X)
print({k: tuple(v.shape) for k, v in J.items()})
Jf = torch.cat([J[n].reshape(4, -1) for n in names], dim=1)
GN = 2 / 4 * Jf.T @ Jf
print(GN.shape, f"{GN.trace().item():.10f}", torch.linalg.matrix_rank(GN).item())
g = torch.autograd.grad(loss_fn({k: v.requires_grad_() for k, v in params.items()}), list(params.values()))
print([f"{t.norm().item():.8f}" for t in g])
