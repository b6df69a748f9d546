# scatter_reduce with every reduction, include_self on/off, and gradients for sum/mean/prod/amax
import torch

src = torch.tensor([1.0, 4.0, 2.0, 3.0, 5.0, 0.5])
index = torch.tensor([0, 1, 0, 1, 2, 2])
for reduce in ["sum", "prod", "mean", "amax", "amin"]:
    for inc in [True, False]:
        out = torch.full((4,), 10.0).scatter_reduce(0, index, src, reduce, include_self=inc)
        print(reduce, inc, out)
for reduce in ["sum", "mean", "prod", "amax", "amin"]:
    s = src.clone().requires_grad_()
    base = torch.tensor([2.0, 2.0, 2.0, 2.0], requires_grad=True)
    out = base.scatter_reduce(0, index, s, reduce, include_self=False)
    (out * torch.tensor([1.0, 2.0, 3.0, 4.0])).sum().backward()
    print(reduce, out.grad_fn.name(), s.grad, base.grad)
ints = torch.tensor([5, 1, 7, 3])
print(torch.zeros(2, dtype=torch.int64).scatter_reduce(0, torch.tensor([0, 0, 1, 1]), ints,
                                                       "mean", include_self=False))
m2 = torch.zeros(2, 3).scatter_reduce(1, torch.tensor([[0, 0, 2], [1, 1, 1]]),
                                      torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]), "amax")
print(m2)
try:
    torch.zeros(3).scatter_reduce(0, index[:3], src[:3], "maximum")
except Exception as e:
    print(type(e).__name__, str(e)[:100])
