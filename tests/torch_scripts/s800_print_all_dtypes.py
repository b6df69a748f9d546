# Printing tensors of many dtypes and shapes: 0-d, empty, int8/uint8/int16, float16, bool,
# big values needing scientific notation, nan/inf mixes
import torch

for dt in [torch.int8, torch.uint8, torch.int16, torch.int32, torch.int64, torch.float16, torch.float32, torch.float64, torch.bool]:
    t = torch.tensor([0, 1, 2, 3], dtype=dt)
    print(dt, t, t.sum() if dt != torch.bool else t.any(), t.view(2, 2))
print(torch.tensor(5, dtype=torch.int8), torch.tensor(2.5, dtype=torch.float16), torch.tensor(True))
print(torch.empty(0, dtype=torch.int32), torch.zeros(0, 3, dtype=torch.float16), torch.zeros(2, 0))
print(torch.tensor([1e-5, 1.0, 1e5]), torch.tensor([1e10, 1.0]), torch.tensor([0.1, 123456.7]))
print(torch.tensor([float("nan"), 1.0, float("inf"), -float("inf")]))
print(torch.tensor([1.0, 2.0], dtype=torch.float16) / 3)
print(torch.tensor([[1, -100], [1000, 7]], dtype=torch.int16))
print(torch.arange(8, dtype=torch.uint8).view(2, 2, 2))
print(torch.tensor([[True, False]], dtype=torch.bool).T)
print(torch.tensor([-0.0, 0.0, 1.5]), torch.tensor([1.0, 2.0]).half().float())
print(torch.tensor([123456789.0]), torch.tensor([0.000012345]))
print(torch.full((2, 3), 1.0 / 3, dtype=torch.float32), torch.full((1,), 65504.0, dtype=torch.float16))
