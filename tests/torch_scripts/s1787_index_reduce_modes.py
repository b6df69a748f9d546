# Tensor.index_reduce_: prod/mean/amax/amin, include_self on and off, and their grads
import torch

index = torch.tensor([0, 2, 0, 1])
src = torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]])
for reduce in ["prod", "mean", "amax", "amin"]:
    for include_self in [True, False]:
        base = torch.full((3, 2), 2.0)
        out = base.index_reduce(0, index, src, reduce, include_self=include_self)
        print(reduce, include_self, out.tolist())
base = torch.tensor([[1.0, -1.0], [2.0, 0.5], [3.0, 3.0]], requires_grad=True)
s = src.clone().requires_grad_()
out = base.index_reduce(0, index, s, "prod")
out.sum().backward()
print(base.grad, s.grad)
base.grad = None
s.grad = None
out = base.index_reduce(0, index, s, "amax", include_self=False)
(out * torch.tensor([1.0, 2.0])).sum().backward()
print(out, base.grad, s.grad)
t = torch.zeros(2, 4)
t.index_reduce_(1, torch.tensor([3, 3, 0]), torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]), "mean", include_self=False)
print(t)
try:
    torch.zeros(3).index_reduce_(0, torch.tensor([0]), torch.ones(1), "sum")
except RuntimeError as e:
    print("RuntimeError", e)
