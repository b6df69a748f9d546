import torch


def names(t):
    n = t.grad_fn
    return n.name(), [f.name() if f is not None else None for f, _ in n.next_functions]


x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
s = torch.tensor(0.5, requires_grad=True)
y = x * 1
row = y[0]
row.mul_(2)
print(names(y))
print(names(row))
col = y[:, 1]
col.add_(s)
print(names(y), names(col))
z = x.clone()
zt = z.t()
zt[0].sub_(1)
print(names(z), names(zt))
print(y)
(y.sum() + (z * z).sum()).backward()
print(x.grad, s.grad)
