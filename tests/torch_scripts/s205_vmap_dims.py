import torch
from torch.func import vmap, jacrev, jacfwd, grad, grad_and_value, hessian

def affine(w, x, b):
    return w @ x + b

W = torch.arange(6.0).reshape(2, 3)
xs = torch.linspace(-1, 1, 12).reshape(4, 3)
b = torch.tensor([0.5, -0.5])
print(vmap(affine, in_dims=(None, 0, None))(W, xs, b))
print(vmap(affine, in_dims=(None, 0, None), out_dims=1)(W, xs, b).shape)
print(vmap(affine, in_dims=(None, 1, None))(W, xs.T.contiguous(), b).shape)
print(vmap(affine, in_dims=(None, 0, None), chunk_size=3)(W, xs, b).sum())
Ws = torch.stack([W, 2 * W, -W])
print(vmap(vmap(affine, in_dims=(None, 0, None)), in_dims=(0, None, None))(Ws, xs, b).shape)
print(vmap(lambda x: (x.sum(), x.max()), out_dims=(0, 0))(xs))
print(vmap(torch.dot)(xs, xs))
print(vmap(lambda d: d["a"] * d["b"], in_dims=({"a": 0, "b": None},))({"a": xs, "b": torch.tensor(2.0)}).shape)
f = lambda x, y: (x.sin() * y ** 2).sum()
print(jacrev(f, argnums=(0, 1))(xs[0], xs[1]))
print(jacfwd(f, argnums=1)(xs[0], xs[1]))
def with_aux(x):
    y = x.exp()
    return y.sum(), {"mean": y.mean()}
g, aux = grad(with_aux, has_aux=True)(xs[1])
print(g, aux["mean"])
gv = grad_and_value(lambda x: (x ** 3).sum())(xs[2])
print(gv[0], gv[1])
print(vmap(grad(lambda x: (x ** 2).prod()))(xs))
print(vmap(hessian(lambda x: x.pow(3).sum()))(xs[:2]).shape)
print(vmap(jacrev(torch.tanh))(xs[:2]).shape)
print(vmap(lambda x: x * 2, in_dims=0, out_dims=0)(torch.tensor([1.0, 2.0, 3.0])))
