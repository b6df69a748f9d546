import torch
import torch.nn as nn
from torch.func import functional_call, vmap, grad, jacrev, hessian

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1))
params = {k: v.detach() for k, v in model.named_parameters()}
x = torch.randn(6, 3)
y = torch.randn(6, 1)

out = functional_call(model, params, (x,))
print(out.shape, torch.allclose(out, model(x)))

zeros = {k: torch.zeros_like(v) for k, v in params.items()}
print(functional_call(model, zeros, x).abs().sum().item())

def loss_fn(p, xb, yb):
    pred = functional_call(model, p, (xb.unsqueeze(0),))
    return ((pred - yb.unsqueeze(0)) ** 2).mean()

per_sample = vmap(grad(loss_fn), in_dims=(None, 0, 0))(params, x, y)
print({k: tuple(v.shape) for k, v in per_sample.items()})
full = torch.autograd.grad(((model(x) - y) ** 2).mean(), list(model.parameters()))
print(all(torch.allclose(per_sample[k].mean(0), g) for k, g in zip(params, full)))

def f(inp):
    return functional_call(model, params, (inp,)).squeeze(-1)
J = jacrev(f)(x[:2])
print(J.shape)
H = hessian(lambda v: f(v.unsqueeze(0)).sum())(x[0])
print(H.shape, torch.allclose(H, H.T))

def predict(p, xi):
    return functional_call(model, p, (xi,))
batched = vmap(predict, in_dims=(None, 0))(params, x)
print(batched.shape, torch.allclose(batched, model(x)))

jac_p = jacrev(lambda p: functional_call(model, p, (x,)).sum())(params)
print(sorted((k, tuple(v.shape)) for k, v in jac_p.items()))

bufs = {k: v for k, v in model.named_buffers()}
print(len(bufs), functional_call(model, (params, bufs), (x,)).shape)
