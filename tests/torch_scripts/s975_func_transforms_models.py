# torch.func on a small model: functional_call, grad with has_aux, vmap over examples, jacrev/jacfwd agree
import torch
import torch.nn as nn
from torch.func import functional_call, grad, vmap, jacrev, jacfwd, hessian

model = nn.Linear(3, 1)
with torch.no_grad():
    model.weight.copy_(torch.tensor([[0.5, -1.0, 2.0]]))
    model.bias.fill_(0.1)
params = {k: v.detach() for k, v in model.named_parameters()}
X = torch.arange(12.0).reshape(4, 3) / 10
Y = torch.tensor([1.0, 0.0, 1.0, 2.0])

def loss_fn(p, x, y):
    pred = functional_call(model, p, (x.unsqueeze(0),)).squeeze()
    return (pred - y) ** 2, pred

g, aux = grad(loss_fn, has_aux=True)(params, X[0], Y[0])
print({k: v.round(decimals=4) for k, v in sorted(g.items())}, aux.round(decimals=4))
per = vmap(grad(lambda p, x, y: loss_fn(p, x, y)[0]), in_dims=(None, 0, 0))(params, X, Y)
print(per["weight"].shape, per["bias"].round(decimals=4))
f = lambda x: torch.stack([x.sin().sum(), (x ** 2).prod()])
x0 = torch.tensor([0.3, 0.7])
print(torch.allclose(jacrev(f)(x0), jacfwd(f)(x0)), jacrev(f)(x0).round(decimals=4))
print(hessian(lambda x: (x ** 3).sum())(x0))
print(vmap(torch.dot)(X[:, :2], X[:, 1:]).round(decimals=3))
print(vmap(lambda r: r.max(), in_dims=1)(X))
