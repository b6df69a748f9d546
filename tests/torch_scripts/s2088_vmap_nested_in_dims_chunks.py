import torch
from torch.func import vmap, grad, jacrev, stack_module_state, functional_call

x = torch.arange(12.0).reshape(3, 4)
print(vmap(vmap(lambda a: a * 2 + 1))(x))
print(vmap(lambda d: d["a"] + d["b"], in_dims=({"a": 0, "b": None},))({"a": x, "b": torch.ones(4)}))
print(vmap(lambda t: (t.sum(), t.max()), out_dims=(0, 0))(x))
print(vmap(torch.outer)(x[:, :2], x[:, 2:]).shape)
print(vmap(lambda a: a.sum(), chunk_size=2)(x))
print(vmap(lambda a, b: a @ b, in_dims=(0, None))(x.reshape(3, 2, 2), torch.eye(2)).shape)
print(vmap(lambda a: a.unsqueeze(0).expand(2, 4).sum(0), in_dims=0)(x))
print(vmap(jacrev(lambda a: a.sin().sum()))(x).round(decimals=4))
print(vmap(lambda a: torch.where(a > 5, a, -a))(x))
print(vmap(lambda a: a[1:3])(x), vmap(lambda a: a.view(2, 2))(x).shape)
models = [torch.nn.Linear(4, 1) for _ in range(3)]
for i, m in enumerate(models):
    with torch.no_grad():
        m.weight.fill_(0.1 * (i + 1)); m.bias.fill_(i)
params, buffers = stack_module_state(models)
print({k: v.shape for k, v in params.items()})
base = models[0]
def run(p, b, inp):
    return functional_call(base, (p, b), (inp,))
print(vmap(run, in_dims=(0, 0, None))(params, buffers, x).squeeze(-1))
def loss(p, inp):
    return functional_call(base, p, (inp,)).pow(2).mean()
g = vmap(grad(loss), in_dims=(0, None))(params, x)
print(g["bias"].squeeze(-1), g["weight"].shape)
