import torch
import torch.nn as nn
from torch.func import functional_call

model = nn.Sequential(nn.Linear(1, 10), nn.ReLU(), nn.Linear(10, 1))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.linspace(-1, 1, p.numel()).view_as(p) * (0.5 + 0.1 * i))
meta_opt = torch.optim.SGD(model.parameters(), lr=0.01)
tasks = [(1.0, 0.0), (0.5, 1.0), (2.0, -0.5)]
xs = torch.linspace(-2, 2, 8).unsqueeze(1)
inner_lr = 0.05
for it in range(2):
    meta_opt.zero_grad()
    total = 0.0
    for amp, phase in tasks:
        ys = amp * torch.sin(xs + phase)
        params = dict(model.named_parameters())
        for _ in range(2):
            loss = nn.functional.mse_loss(functional_call(model, params, (xs,)), ys)
            grads = torch.autograd.grad(loss, list(params.values()), create_graph=True)
            params = {k: v - inner_lr * g for (k, v), g in zip(params.items(), grads)}
        q = nn.functional.mse_loss(functional_call(model, params, (xs + 0.1,)), amp * torch.sin(xs + 0.1 + phase))
        q.backward()
        total += q.item()
    meta_opt.step()
    print(it, round(total, 6))
print([tuple(p.grad.shape) for p in model.parameters()])
print(model[0].weight.grad.squeeze().round(decimals=5))
print(type(params), sorted(params), params["0.weight"].grad_fn is not None)
