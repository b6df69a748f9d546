# vectorize=True and strategy="forward-mode" agree with the default loop
import torch
from torch.autograd.functional import jacobian

def f(x):
    return torch.cat([x.exp(), (x[:2] * x[1:]).tanh()])

x = torch.tensor([0.1, -0.3, 0.7])
J0 = jacobian(f, x)
J1 = jacobian(f, x, vectorize=True)
J2 = jacobian(f, x, vectorize=True, strategy="forward-mode")
print(J0.shape)
print(J0)
print(torch.allclose(J0, J1), torch.allclose(J0, J2))
