# torch.autograd.functional: vjp, jvp, vhp, hvp with create_graph and strict
import torch
from torch.autograd.functional import vjp, jvp, vhp, hvp, jacobian, hessian

def f(x):
    return (x ** 3).sum() + x.prod()

x = torch.tensor([1.0, 2.0, 0.5])
v = torch.tensor([1.0, 0.0, -1.0])
print(vhp(f, x, v))
print(hvp(f, x, v))
print(vjp(lambda a: a.sin() * 2, x, torch.ones(3)))
print(jvp(lambda a: a.exp(), x, v))
out, g = vjp(f, x, create_graph=True)
print(out, g)
def pair(a, b):
    return a * b, a + b
print(jacobian(pair, (torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0]))))
print(hessian(lambda a, b: (a * b ** 2).sum(), (torch.tensor([1.0]), torch.tensor([2.0]))))
try:
    jacobian(lambda a: torch.zeros(2), torch.ones(2), strict=True)
except RuntimeError as e:
    print("RuntimeError:", str(e)[:70])
print(jacobian(lambda a: a ** 2, torch.tensor([1.0, 3.0]), vectorize=True, strategy="forward-mode"))
