import numpy as np
import torch

print(torch.arange(0, 1, 0.25), torch.linspace(0, 1, 5), torch.logspace(0, 2, 3), torch.eye(2, 3), torch.full((2,), 7))
print(torch.zeros_like(torch.ones(2), dtype=torch.long), torch.empty(2, 3).shape, torch.ones(2, 2).new_zeros(3), torch.ones(1).new_tensor([1, 2]))
a = np.array([[1, 2], [3, 4]], dtype=np.int32)
t = torch.from_numpy(a)
a[0, 0] = 9
print(t, t.dtype, torch.as_tensor(a, dtype=torch.float32), torch.tensor(a).numpy().dtype)
print(torch.tensor([[1, 2], [3, 4]]).numpy().tolist(), torch.tensor(np.float32(2.5)), torch.tensor(3.0).item(), type(torch.tensor(3).item()))
print(torch.ones(2, 3).new_full((2,), 3.5), torch.ones(2).new_empty((1, 2)).shape, torch.tensor([1.5]).new_ones(2, dtype=torch.int32))
print(torch.diag(torch.tensor([1.0, 2.0]), 1), torch.diag_embed(torch.tensor([[1.0, 2.0]])), torch.tril(torch.ones(3, 3), -1))
print(torch.meshgrid(torch.arange(2), torch.arange(3), indexing="ij")[1], torch.meshgrid(torch.arange(2), torch.arange(3), indexing="xy")[0].shape)
print(torch.heaviside(torch.tensor([-1.0, 0.0, 2.0]), torch.tensor([0.5])), torch.arange(5)[torch.arange(5) % 2 == 0], torch.scalar_tensor(3))
print(torch.tensor([]).shape, torch.tensor([[]]).shape, torch.ones(0, 3).sum(0), torch.ones(0).mean(), torch.empty(0).max() if False else 0)
print(torch.stack([torch.tensor(1), torch.tensor(2)]), torch.hstack([torch.ones(2), torch.zeros(1)]), torch.vstack([torch.ones(2), torch.zeros(2)]).shape)
print(torch.dstack([torch.ones(2, 2), torch.zeros(2, 2)]).shape, torch.column_stack([torch.arange(2), torch.arange(2)]), torch.row_stack([torch.arange(2)]) if hasattr(torch, "row_stack") else 0)
print(torch.tensor(range(4)), torch.tensor([np.int64(3)]), torch.tensor([[1.0], [2.0]]).T, torch.Tensor([1, 2]).dtype, torch.LongTensor([1, 2]), torch.FloatTensor(2).shape)
print(torch.randn(3, generator=torch.Generator().manual_seed(1)).shape, torch.randperm(4).sort().values, torch.randint(0, 3, (2, 2)).dtype, torch.rand_like(torch.ones(2)).shape)
