import torch
from torch.autograd.functional import jacobian


def two_out(a, b):
    return a * b.sum(), torch.outer(a, b).sum(0)


a = torch.tensor([1.0, 2.0, 3.0])
b = torch.tensor([0.5, -1.0])
J = jacobian(two_out, (a, b))
print(type(J).__name__, len(J), len(J[0]))
for i, row in enumerate(J):
    for j, block in enumerate(row):
        print(i, j, tuple(block.shape), block.tolist())
Jr = jacobian(two_out, (a, b), vectorize=True, strategy="reverse-mode")
Jf = jacobian(two_out, (a, b), vectorize=True, strategy="forward-mode")
print(all(torch.equal(Jr[i][j], Jf[i][j]) and torch.equal(Jr[i][j], J[i][j]) for i in range(2) for j in range(2)))
single = jacobian(lambda m: m @ m, torch.tensor([[1.0, 2.0], [0.0, 1.0]]))
print(single.shape)
print(single.reshape(4, 4))
sc = jacobian(lambda t: (t ** 2).sum(), torch.tensor([1.0, -2.0]))
print(sc)
ag = a.clone().requires_grad_()
Jc = jacobian(lambda t: t.exp() * t, ag, create_graph=True)
Jc.diagonal().sum().backward()
print(Jc.requires_grad, ag.grad.round(decimals=5))
try:
    jacobian(two_out, (a, b), strategy="forward-mode")
except NotImplementedError as e:
    print("NotImplementedError:", str(e)[:60])
print(jacobian(lambda t: torch.ones(2), a, strict=False))
