# jacobian with create_graph=True, then differentiate a function of the Jacobian
import torch
from torch.autograd.functional import jacobian

def f(x):
    return torch.stack([x[0] ** 2 * x[1], torch.sin(x[1]) + x[0]])

x = torch.tensor([1.5, -0.5], requires_grad=True)
J = jacobian(f, x, create_graph=True)
print(J)
print(J.requires_grad, J.grad_fn is not None)
J.trace().backward()
print(x.grad)
J2 = jacobian(f, x)
print(J2.requires_grad, torch.allclose(J, J2))
