import numpy as np
import torch

print(torch.zeros(2, 3), torch.ones(2, dtype=torch.int32), torch.full((2, 2), 7.5))
print(torch.eye(3, 2), torch.arange(0, 1, 0.25), torch.arange(5, dtype=torch.float32))
print(torch.linspace(0, 10, steps=5), torch.logspace(0, 2, steps=3))
print(torch.empty(2, 3).shape, torch.zeros_like(torch.ones(2, dtype=torch.int8)))
a = np.array([[1, 2], [3, 4]])
t = torch.from_numpy(a)
print(t, t.dtype)
a[0, 0] = 100
print(t[0, 0].item())
print(torch.tensor(a).dtype, torch.as_tensor(np.float32(3.5)), torch.tensor(np.array(2.5)).dtype)
print((torch.tensor([1, 2]) + 0.5).dtype, (torch.tensor([1, 2], dtype=torch.int8) * 2).dtype)
print((torch.tensor([1.0], dtype=torch.float32) + torch.tensor([1.0], dtype=torch.float16)).dtype)
print((torch.tensor([True]) + 1).dtype, (torch.tensor([1]) / 2).dtype, (torch.tensor([3]) // 2).dtype)
print(torch.result_type(torch.tensor([1]), 1.0), torch.promote_types(torch.int32, torch.float16))
print(torch.can_cast(torch.float64, torch.int32), torch.can_cast(torch.int32, torch.float64))
print(torch.tensor([1.7, -1.7]).int(), torch.tensor([1.7, -1.7]).round(), torch.tensor([0.5, 1.5, 2.5]).round())
print(torch.tensor([300]).to(torch.uint8), torch.tensor([-1]).to(torch.uint8))
print(torch.tensor([1, 2, 3]).numpy().dtype, torch.ones(2, dtype=torch.float32).numpy().dtype)
print(torch.tensor([[1, 2], [3, 4]]).tolist(), torch.tensor(5).item(), type(torch.tensor(5.0).item()))
print(torch.randn(3, 4).shape, torch.rand(2, dtype=torch.float32).dtype, torch.randint(0, 10, (3,)).dtype)
print(torch.randint(3, 5, (100,)).min().item() >= 3, torch.randperm(6).sort().values)
