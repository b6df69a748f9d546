import torch
from torch.func import grad, vmap, jacrev, jacfwd, hessian, grad_and_value, functional_call
import torch.nn as nn

print(grad(lambda x: (x ** 2).sum())(torch.tensor([1.0, 2.0])))
print(grad(grad(lambda x: x.sin()))(torch.tensor(0.5)))
print(vmap(lambda x: x.sum())(torch.arange(6.).reshape(2, 3)))
print(vmap(torch.dot)(torch.ones(3, 2), torch.arange(6.).reshape(3, 2)))
print(vmap(lambda x, y: x * y, in_dims=(0, None))(torch.ones(3, 2), torch.tensor([2., 3.])))
print(jacrev(torch.sin)(torch.tensor([0.0, 1.0])))
print(jacfwd(torch.sin)(torch.tensor([0.0, 1.0])))
print(hessian(lambda x: (x ** 3).sum())(torch.tensor([1.0, 2.0])))
g, v = grad_and_value(lambda x: (x ** 2).sum())(torch.tensor([3.0]))
print(g, v)
m = nn.Linear(2, 1)
params = {k: torch.ones_like(v) for k, v in m.named_parameters()}
print(functional_call(m, params, (torch.tensor([[1.0, 2.0]]),)))
def loss(p, x): return functional_call(m, p, (x,)).sum()
print(grad(loss)(params, torch.tensor([[1.0, 2.0]])))
ps = vmap(grad(lambda w, x: (w * x).sum()), in_dims=(None, 0))(torch.ones(2), torch.arange(6.).reshape(3, 2))
print(ps)
print(grad(lambda x, y: (x * y).sum(), argnums=(0, 1))(torch.tensor(2.), torch.tensor(3.)))
print(grad(lambda x: ((x ** 2).sum(), x.mean()), has_aux=True)(torch.tensor([1.0, 3.0])))
