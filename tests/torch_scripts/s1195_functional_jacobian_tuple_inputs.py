# jacobian over a tuple of inputs and tuple of outputs: nested tuple structure
import torch
from torch.autograd.functional import jacobian

def f(a, b):
    return a * b, (a ** 2).sum() + b.prod()

a = torch.tensor([1.0, 2.0, 3.0])
b = torch.tensor([0.5, -1.0, 2.0])
J = jacobian(f, (a, b))
print(type(J).__name__, len(J), type(J[0]).__name__, len(J[0]))
for i, row in enumerate(J):
    for j, blk in enumerate(row):
        print(i, j, tuple(blk.shape))
        print(blk)
