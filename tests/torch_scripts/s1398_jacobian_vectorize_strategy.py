# autograd.functional.jacobian options: vectorize, create_graph, strict, strategy
import torch
from torch.autograd.functional import jacobian

def f(x, y):
    return torch.stack([x.sum() * y[0], (x * y).prod()]), x.exp()

x = torch.tensor([1.0, 2.0])
y = torch.tensor([0.5, -1.0])
J = jacobian(f, (x, y))
for row in J:
    print([j.tolist() for j in row])
Jv = jacobian(f, (x, y), vectorize=True)
print(all(torch.allclose(a, b) for ra, rb in zip(J, Jv) for a, b in zip(ra, rb)))
Jf = jacobian(lambda t: t.sin() * t, x, vectorize=True, strategy="forward-mode")
print(Jf)
try:
    jacobian(lambda t: torch.ones(2), x, strict=True)
except RuntimeError as e:
    print("RuntimeError", str(e)[:70])
print(jacobian(lambda t: torch.ones(2), x))
