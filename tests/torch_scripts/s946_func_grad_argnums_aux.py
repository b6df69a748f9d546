# torch.func.grad and grad_and_value with argnums tuples and has_aux; jvp and vjp of torch.func
import torch
from torch.func import grad, grad_and_value, jvp, vjp, linearize

def f(a, b):
    return (a ** 2 * b).sum(), {"mean": a.mean()}

a = torch.tensor([1.0, 2.0]); b = torch.tensor([3.0, -1.0])
g, aux = grad(f, argnums=(0, 1), has_aux=True)(a, b)
print(g, aux)
(ga, val) = grad_and_value(lambda x: (x.sin() ** 2).sum())(a)
print(ga.round(decimals=6), val.round(decimals=6))
out, tangent = jvp(torch.sin, (a,), (torch.ones(2),))
print(out.round(decimals=6), tangent.round(decimals=6))
out, fn = vjp(lambda x, y: x * y, a, b)
print(out, fn(torch.ones(2)))
out, jfn = linearize(torch.exp, a)
print(jfn(torch.tensor([1.0, 0.0])).round(decimals=6))
print(grad(grad(lambda x: x ** 3))(torch.tensor(2.0)))
