import numpy as np
import torch

print(torch.arange(0, 1, 0.25), torch.arange(5, 0, -2), torch.arange(1.0, 2.0, 0.3).dtype, torch.arange(3).dtype)
print(torch.linspace(0, 1, 5), torch.linspace(-1, 1, 1), torch.logspace(0, 2, 3), torch.logspace(0, 3, 4, base=2))
print(torch.eye(2, 3), torch.eye(3, dtype=torch.int32), torch.full((2, 2), 1.5).dtype, torch.full((2,), 3).dtype, torch.full((1,), True))
print(torch.zeros_like(torch.ones(2, dtype=torch.int8)), torch.ones_like(torch.zeros(2, 1), dtype=torch.float32), torch.full_like(torch.arange(3), 7))
print(torch.empty(2, 3).shape, torch.empty_like(torch.ones(4)).shape, torch.zeros((2, 3)).shape, torch.zeros([2, 3]).shape, torch.zeros(torch.Size([1, 2])).shape)
print(torch.tensor([[1, 2], [3, 4]]).dtype, torch.tensor([1.0, 2]).dtype, torch.tensor([True, False]).dtype, torch.tensor(np.float32(1.5)).dtype)
a = np.array([1.0, 2.0, 3.0])
t = torch.from_numpy(a)
a[0] = 100.0
print(t, t.dtype)
t2 = torch.as_tensor(a)
t3 = torch.tensor(a)
a[1] = -5.0
print(t2, t3)
print(torch.as_tensor([1, 2, 3], dtype=torch.float32), torch.asarray([[1, 2]]).shape, torch.from_numpy(np.arange(4, dtype=np.int32)).dtype)
n = torch.arange(4.0).numpy()
print(type(n).__name__, n.dtype, torch.arange(3).tolist(), torch.tensor(2.5).item(), torch.tensor([[1, 2]]).tolist())
s = torch.tensor([3.0])
print(torch.stack([torch.tensor(1.0), torch.tensor(2.0)]), torch.tensor([s.item(), 4.0]))
x = torch.tensor([1.0, 2.0], requires_grad=True)
c = x.clone()
d = x.detach()
d[0] = 10.0
print(c.requires_grad, c.grad_fn is not None, d.requires_grad, x)
print(torch.tensor(x.detach().tolist()), torch.zeros(3).new_ones(2), torch.ones(2, dtype=torch.int32).new_zeros((1, 2)), torch.ones(1).new_tensor([5, 6]).dtype)
print(torch.ones(2).new_full((2,), 3.0), torch.ones(2).new_empty(3).shape, torch.tensor([]).shape, torch.tensor([[]]).shape)
print(torch.complex(torch.tensor([1.0]), torch.tensor([2.0])), torch.polar(torch.tensor([2.0]), torch.tensor([0.0])))
print(torch.tril(torch.ones(3, 3)), torch.triu(torch.ones(2, 3), diagonal=1), torch.diag(torch.tensor([1.0, 2.0])), torch.diagflat(torch.tensor([[1, 2]])))
print(torch.heaviside(torch.tensor([-1.0, 0.0, 2.0]), torch.tensor([0.5])), torch.zeros(2, 2).fill_diagonal_(3.0))
print(torch.range(0, 3), torch.scalar_tensor(4), torch.empty(0).numel(), torch.Size([2, 3]).numel())
