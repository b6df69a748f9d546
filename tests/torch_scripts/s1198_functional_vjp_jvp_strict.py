# vjp/jvp return (outputs, products); strict=True raises for outputs independent of inputs
import torch
from torch.autograd.functional import vjp, jvp

def f(x):
    return x ** 2 + 1

def g(x):
    return torch.ones(3)

x = torch.tensor([1.0, 2.0, 3.0])
v = torch.tensor([1.0, 0.5, 0.25])
out, vj = vjp(f, x, v)
print(out, vj)
out, jv = jvp(f, x, v)
print(out, jv)
out, vj = vjp(g, x, v)
print(out, vj)
try:
    vjp(g, x, v, strict=True)
except RuntimeError as e:
    print("RuntimeError", "independent" in str(e) or "does not require" in str(e) or "strict" in str(e))
