import torch
import torch.nn as nn
from torch.func import functional_call, vmap, grad, jacrev, jacfwd, hessian, vjp, jvp, stack_module_state
import copy

model = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float64) + i).reshape(p.shape) * 0.5)
params = {k: v.detach() for k, v in model.named_parameters()}
buffers = {k: v.detach() for k, v in model.named_buffers()}


def compute_loss(params, buffers, sample, target):
    batch = sample.unsqueeze(0)
    targets = target.unsqueeze(0)
    predictions = functional_call(model, (params, buffers), (batch,))
    return torch.nn.functional.mse_loss(predictions, targets)


data = torch.cos(torch.arange(15.)).reshape(5, 3)
targets = torch.sin(torch.arange(5.)).reshape(5, 1)
ft_compute_grad = grad(compute_loss)
ft_compute_sample_grad = vmap(ft_compute_grad, in_dims=(None, None, 0, 0))
ft_per_sample_grads = ft_compute_sample_grad(params, buffers, data, targets)
print({k: tuple(v.shape) for k, v in ft_per_sample_grads.items()})
manual = []
for i in range(5):
    model.zero_grad()
    loss = torch.nn.functional.mse_loss(model(data[i:i + 1]), targets[i:i + 1])
    loss.backward()
    manual.append(model[0].weight.grad.clone())
print(torch.allclose(torch.stack(manual), ft_per_sample_grads['0.weight']))
print(ft_per_sample_grads['2.bias'].squeeze().numpy().round(6))
x = torch.tensor([0.5, -0.2, 1.0])
f = lambda x: model(x).squeeze()
print(jacrev(f)(x).detach().numpy().round(6), torch.allclose(jacrev(f)(x), jacfwd(f)(x)))
print(hessian(f)(x).shape, torch.allclose(hessian(f)(x), hessian(f)(x).T))
print(vmap(jacrev(f))(data).shape)
out, vjp_fn = vjp(torch.sin, torch.tensor([0.0, 1.0]))
print(out, vjp_fn(torch.ones(2)))
print(jvp(torch.sin, (torch.tensor([0.0, 1.0]),), (torch.ones(2),)))
jac_params = jacrev(lambda p: functional_call(model, p, (data,)))(params)
print({k: tuple(v.shape) for k, v in jac_params.items()})
models = [nn.Linear(2, 1) for _ in range(3)]
for i, m in enumerate(models):
    with torch.no_grad():
        m.weight.fill_(i)
        m.bias.fill_(-i)
ps, bs = stack_module_state(models)
print({k: tuple(v.shape) for k, v in ps.items()})
base = copy.deepcopy(models[0]).to('meta')


def fmodel(params, buffers, x):
    return functional_call(base, (params, buffers), (x,))


print(vmap(fmodel, in_dims=(0, 0, None))(ps, bs, torch.ones(4, 2)).squeeze(-1))
print(vmap(lambda a, b: a @ b)(torch.ones(3, 2, 2), torch.arange(6.).reshape(3, 2)))
print(vmap(vmap(torch.mul))(torch.ones(2, 3), torch.arange(6.).reshape(2, 3)))
print(vmap(lambda v: v.sum(0), in_dims=1)(torch.arange(6.).reshape(2, 3)), vmap(torch.outer)(torch.ones(2, 2), torch.ones(2, 3)).shape)
print(vmap(lambda v: (v, v * 2), out_dims=(0, 1))(torch.arange(6.).reshape(3, 2))[1].shape)
