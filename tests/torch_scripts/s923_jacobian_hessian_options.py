# autograd.functional.jacobian with strategy="forward-mode", strict, and hessian of a vector input
import torch
from torch.autograd.functional import jacobian, hessian

def f(x):
    return torch.stack([x[0] * x[1], x[1] ** 2, torch.exp(x[0])])

x = torch.tensor([1.0, 2.0])
print(jacobian(f, x).round(decimals=6))
print(jacobian(f, x, vectorize=True, strategy="forward-mode").round(decimals=6))
print(hessian(lambda z: (z ** 2).prod(), x))
print(jacobian(lambda z: torch.zeros(2), x))
try:
    jacobian(lambda z: torch.zeros(2), x, strict=True)
except RuntimeError as e:
    print(str(e)[:90])
try:
    jacobian(f, x, strategy="forward-mode")
except NotImplementedError as e:
    print(e)
print(hessian(lambda a, b: a.sum() * b.sum() ** 2, (x, torch.tensor([1.0])))[1][1])
