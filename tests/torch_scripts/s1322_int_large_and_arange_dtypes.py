# integer ranges and dtypes: large int64, arange/linspace dtypes, int overflow on int8, float32 sum
import torch

print(torch.tensor(2 ** 40), torch.tensor([2 ** 40, 1]).dtype)
print(torch.arange(5).dtype, torch.arange(0, 1, 0.25).dtype, torch.arange(5, dtype=torch.float32))
print(torch.linspace(0, 1, 5, dtype=torch.float32), torch.linspace(0, 10, 3, dtype=torch.int64))
print(torch.tensor([127], dtype=torch.int8) + torch.tensor([1], dtype=torch.int8))
print(torch.tensor([200], dtype=torch.uint8) * 2)
print(torch.full((2,), 7).dtype, torch.full((2,), 7.0).dtype, torch.full((2,), True).dtype)
print(torch.zeros(2, dtype=torch.int32).sum().dtype, torch.ones(3, dtype=torch.uint8).sum().dtype, torch.ones(2, dtype=torch.bool).prod().dtype)
print(torch.tensor([1, 2]).float().dtype, torch.tensor([1.5]).int(), torch.tensor([-1.5]).long(), torch.tensor([2.7]).to(torch.uint8))
