import torch
from torch.autograd.functional import jacobian, hessian

def two_out(a, b):
    return a * b, (a + b).sum()

a = torch.tensor([1.0, 2.0, 3.0])
b = torch.tensor([0.5, -1.0, 2.0])
J = jacobian(two_out, (a, b))
print(type(J).__name__, len(J), [type(j).__name__ for j in J])
print(J[0][0].shape, J[0][1].shape, J[1][0].shape, J[1][1].shape)
print(J[0][0])
print(J[1][1])

def const_part(a, b):
    return a * 2 + 0 * b.sum()

Jc = jacobian(const_part, (a, b))
print(Jc[1].abs().sum().item())
try:
    jacobian(lambda a, b: a.detach() * 2, (a, b), strict=True)
except RuntimeError as e:
    print("strict:", "independent" in str(e) or "does not require" in str(e) or "Output 0" in str(e))
Jz = jacobian(lambda a, b: a * 2, (a, b))
print(Jz[1])

def loss(w, bias):
    return ((w * a).sum() + bias) ** 2

w = torch.tensor([0.1, 0.2, 0.3])
bias = torch.tensor(0.5)
H = hessian(loss, (w, bias))
print(len(H), len(H[0]), H[0][0].shape, H[0][1].shape, H[1][0].shape, H[1][1].shape)
print(H[0][0])
print(H[1][1], H[0][1])
