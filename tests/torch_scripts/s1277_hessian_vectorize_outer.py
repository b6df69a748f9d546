# hessian(vectorize=True, outer_jacobian_strategy="forward-mode") matches the default
import torch
from torch.autograd.functional import hessian

def f(x):
    return (x[0] ** 2 * x[1] ** 3) + torch.exp(x[2] * x[0])

x = torch.tensor([1.0, 0.5, -1.0])
H0 = hessian(f, x)
H1 = hessian(f, x, vectorize=True)
H2 = hessian(f, x, vectorize=True, outer_jacobian_strategy="forward-mode")
print(H0)
print(torch.allclose(H0, H1), torch.allclose(H0, H2))
Hc = hessian(f, x.clone().requires_grad_(), create_graph=True)
print(Hc.requires_grad)
