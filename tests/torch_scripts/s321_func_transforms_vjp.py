import torch
from torch.func import jvp, vjp, hessian, linearize, jacrev, vmap


def f(x, y):
    return torch.stack([x[0] * y.sin().sum(), (x ** 2).sum() * y[1], x.prod() + y.exp()[0]])


x = torch.tensor([0.5, -1.0, 2.0])
y = torch.tensor([0.3, 0.7])
out, tangent = jvp(f, (x, y), (torch.ones(3), torch.zeros(2)))
print(out, tangent)
out2, vjp_fn = vjp(f, x, y)
gx, gy = vjp_fn(torch.tensor([1.0, 0.0, -1.0]))
print(torch.allclose(out, out2), gx, gy)
H = hessian(lambda v: (v.sin() * v.cos().cumsum(0)).sum())(x)
print(H)
o, lin = linearize(lambda v: v.tanh() * v, x)
print(o, lin(torch.tensor([1.0, 2.0, 3.0])))
J = jacrev(f, argnums=(0, 1))(x, y)
print(J[0].shape, J[1].shape)
print(J[1])


def loss(w, xb, yb):
    return ((xb @ w - yb) ** 2).mean()


w = torch.tensor([1.0, -0.5])
xb = torch.tensor([[1.0, 2.0], [3.0, -1.0], [0.5, 0.5]])
yb = torch.tensor([1.0, 0.0, 2.0])
Hw = hessian(loss)(w, xb, yb)
print(Hw, torch.allclose(Hw, 2 * xb.T @ xb / 3))
per_ex = vmap(jacrev(loss), in_dims=(None, 0, 0))(w, xb.unsqueeze(1), yb.unsqueeze(1))
print(per_ex)
(_, vf) = vjp(lambda a: (a * a, a.sum()), x)
print(vf((torch.ones(3), torch.tensor(2.0))))
