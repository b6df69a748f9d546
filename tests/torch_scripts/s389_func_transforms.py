import torch
from torch.func import grad, vmap, jacrev, jacfwd, hessian, functional_call, grad_and_value
import torch.nn as nn


def f(x):
    return (x.sin() * x).sum()


x = torch.linspace(-1, 1, 4)
print(grad(f)(x))
print(vmap(grad(f))(x.view(2, 2)))
print(jacrev(torch.sin)(x).diagonal())
print(jacfwd(lambda v: v ** 2)(x))
print(hessian(f)(x).diag())
g, v = grad_and_value(f)(x)
print(g, v)

model = nn.Linear(3, 1)
with torch.no_grad():
    model.weight.copy_(torch.tensor([[1.0, -1.0, 0.5]]))
    model.bias.fill_(0.1)
params = {k: v.detach() for k, v in model.named_parameters()}
inp = torch.tensor([[1.0, 2.0, 3.0], [0.0, 1.0, -1.0]])


def loss(p, xb):
    return functional_call(model, p, (xb,)).pow(2).mean()


grads = grad(loss)(params, inp)
print(sorted(grads), grads["weight"], grads["bias"])
per_ex = vmap(grad(loss), in_dims=(None, 0))(params, inp.unsqueeze(1))
print(per_ex["weight"].shape, per_ex["bias"])
print(vmap(torch.dot)(inp, inp), vmap(lambda a: a.sum(), in_dims=1)(inp))
