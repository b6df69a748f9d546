import torch
from torch.func import grad, grad_and_value, vmap, jacrev, jacfwd, hessian, functional_call

model = torch.nn.Linear(3, 1)
with torch.no_grad():
    model.weight.copy_(torch.tensor([[0.5, -0.2, 0.1]]))
    model.bias.fill_(0.3)
params = {k: v.detach() for k, v in model.named_parameters()}
xs = torch.tensor([[1.0, 2.0, 3.0], [0.0, 1.0, -1.0], [2.0, 0.0, 1.0]])
ys = torch.tensor([1.0, 0.0, 2.0])


def loss(p, x, y):
    pred = functional_call(model, p, (x.unsqueeze(0),)).squeeze()
    return (pred - y) ** 2


per_sample = vmap(grad(loss), in_dims=(None, 0, 0))(params, xs, ys)
print({k: v.round(decimals=6) for k, v in per_sample.items()})
g, val = grad_and_value(lambda w: (w.sin() * w).sum())(torch.tensor([0.5, 1.5]))
print(g, val)
print(jacrev(torch.sin)(torch.tensor([0.0, 1.0])))
print(jacfwd(lambda v: v.cumsum(0))(torch.tensor([1.0, 2.0, 3.0])))
print(hessian(lambda v: (v ** 2).prod())(torch.tensor([1.0, 2.0])))
print(vmap(torch.dot)(xs, xs))
print(vmap(lambda r: r.max(), in_dims=1)(xs))
print(vmap(lambda a, b: a * b, in_dims=(0, None))(xs, torch.tensor([1.0, 10.0, 100.0])))
print(grad(lambda w, x: (w * x).sum(), argnums=1)(torch.ones(2), torch.tensor([3.0, 4.0])))
print(grad(lambda x: (x ** 2).sum(), has_aux=False)(torch.tensor(3.0)))
print(grad(lambda x: ((x ** 2).sum(), x.mean()), has_aux=True)(torch.tensor([1.0, 3.0])))
