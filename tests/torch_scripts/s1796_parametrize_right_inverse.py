# nn.utils.parametrize: right_inverse on assignment, cached(), unsafe shapes, removal
import torch
import torch.nn as nn
import torch.nn.utils.parametrize as P


UPPER = torch.tensor([[1.0, 1.0, 1.0], [0.0, 1.0, 1.0], [0.0, 0.0, 1.0]])  # (X.triu(): a mask)
STRICT = UPPER - torch.eye(3)


class Symmetric(nn.Module):
    def forward(self, X):
        return X * UPPER + (X * STRICT).transpose(-1, -2)

    def right_inverse(self, A):
        return A * UPPER


class Scale(nn.Module):
    def __init__(self, s):
        super().__init__()
        self.s = s

    def forward(self, X):
        return X * self.s

    def right_inverse(self, A):
        return A / self.s


m = nn.Linear(3, 3)
with torch.no_grad():
    m.weight.copy_(torch.arange(9.0).reshape(3, 3))
P.register_parametrization(m, "weight", Symmetric())
P.register_parametrization(m, "weight", Scale(2.0))
print(m.weight)
print(m.parametrizations.weight.original)
print(P.is_parametrized(m), P.is_parametrized(m, "weight"), P.is_parametrized(m, "bias"))
print(type(m).__name__, P.type_before_parametrizations(m).__name__)
m.weight = torch.tensor([[1.0, 2.0, 3.0], [2.0, 4.0, 5.0], [3.0, 5.0, 6.0]])
print(m.parametrizations.weight.original)
print(m.weight)
with P.cached():
    a = m.weight
    b = m.weight
    print(a is b)
print(m.weight is m.weight)
m.weight.sum().backward()
print(m.parametrizations.weight.original.grad)
print(sorted(k for k in m.state_dict()))
print(m.parametrizations)
P.remove_parametrizations(m, "weight", leave_parametrized=True)
print(type(m.weight).__name__, m.weight)
print(P.is_parametrized(m), sorted(m.state_dict()))


class Rows(nn.Module):
    def forward(self, X):
        return X[:2]


m2 = nn.Linear(3, 4)
try:
    P.register_parametrization(m2, "weight", Rows())
except ValueError as e:
    print("ValueError", str(e).split("\n")[0])
P.register_parametrization(m2, "weight", Rows(), unsafe=True)
print(m2.weight.shape)
P.remove_parametrizations(m2, "weight", leave_parametrized=False)
print(m2.weight.shape)
try:
    P.remove_parametrizations(m2, "weight")
except ValueError as e:
    print("ValueError", e)
