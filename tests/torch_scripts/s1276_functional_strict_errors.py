# autograd.functional strict mode and create_graph checks for jacobian and hessian
import torch
from torch.autograd.functional import jacobian, hessian

def lin(x):
    return 2 * x

def indep(x):
    return torch.zeros(2)

x = torch.tensor([1.0, 2.0])
print(jacobian(indep, x))
for fn, f in [("jacobian", lambda: jacobian(indep, x, strict=True)), ("hessian", lambda: hessian(lambda t: lin(t).sum(), x, strict=True))]:
    try:
        print(fn, f())
    except RuntimeError as e:
        print(fn, "RuntimeError")
print(hessian(lambda t: lin(t).sum(), x))
try:
    jacobian(lin, x, strict=True, vectorize=True)
except RuntimeError as e:
    print("RuntimeError", "vectorize" in str(e))
