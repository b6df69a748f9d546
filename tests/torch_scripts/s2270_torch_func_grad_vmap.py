import torch
from torch.func import grad, vmap, jacrev, jacfwd, hessian

x = torch.tensor(0.7)
cos_x = grad(lambda x: torch.sin(x))(x)
print(torch.allclose(cos_x, x.cos()), cos_x)
neg_sin_x = grad(grad(lambda x: torch.sin(x)))(x)
print(torch.allclose(neg_sin_x, -x.sin()))


def f(x):
    return x.sin().sum()


xs = torch.linspace(-1, 1, 6).view(3, 2)
print(vmap(grad(f))(xs))
batched_dot = vmap(torch.dot)
print(batched_dot(torch.ones(4, 3), torch.arange(12.0).view(4, 3)))


def predict(weight, bias, x):
    return torch.nn.functional.linear(x, weight, bias).tanh()


D = 4
weight = torch.linspace(-1, 1, D * D).view(D, D)
bias = torch.linspace(0, 0.3, D)
x = torch.linspace(-0.5, 0.5, D)
jr = jacrev(predict, argnums=2)(weight, bias, x)
jf = jacfwd(predict, argnums=2)(weight, bias, x)
print(jr.shape, torch.allclose(jr, jf))
print(jr.round(decimals=4))
jw, jb = jacrev(predict, argnums=(0, 1))(weight, bias, x)
print(jw.shape, jb.shape)
h = hessian(lambda v: (v ** 3).sum() + v.prod())(torch.tensor([1.0, 2.0, 3.0]))
print(h)
xb = torch.linspace(0, 1, 10).view(5, 2)
print(vmap(jacrev(lambda v: v.exp() * v.sum()))(xb).shape)
