# torch.func.jvp / vjp with has_aux, linearize, grad_and_value, jacrev chunk_size
import torch
from torch.func import jvp, vjp, linearize, grad_and_value, jacrev, jacfwd

f = lambda x: torch.sin(x) * x
x = torch.tensor([0.5, 1.0, 2.0])
t = torch.tensor([1.0, 0.0, 2.0])
print(jvp(f, (x,), (t,)))
out, fn = vjp(f, x)
print(out, fn(torch.ones(3)))
out, fn, aux = vjp(lambda a: (a.exp(), a.sum()), x, has_aux=True)
print(fn(torch.ones(3)), aux)
print(jvp(lambda a: (a ** 2, a.mean()), (x,), (t,), has_aux=True))
val, jfn = linearize(f, x)
print(val, jfn(t))
print(grad_and_value(lambda a: (a ** 2).sum())(x))
print(grad_and_value(lambda a: ((a ** 2).sum(), a.max()), has_aux=True)(x))
print(jacrev(f, chunk_size=1)(x), jacfwd(f, randomness="error")(x))
