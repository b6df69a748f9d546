import torch

t = torch.tensor(3.14159)
print(f"{t:.2f}", f"{t.item():.3e}", format(t, ".1f"), "%.3f" % t)
i = torch.tensor(42)
print(f"{i}", f"{i:5d}", f"{i.item():x}", int(i) + 1, float(i) / 4)
print(torch.tensor([1.5, 2.5]).tolist(), torch.tensor([[1, 2]]).tolist(), torch.tensor(True).item())
print(type(torch.tensor(1.0).item()), type(torch.tensor(1).item()), type(torch.tensor(True).item()))
print(torch.tensor([0.1], dtype=torch.float32).item(), torch.tensor([0.1], dtype=torch.float16).tolist())
print(torch.Size([2, 3]), torch.Size([2, 3]).numel(), torch.Size([]) == (), list(torch.ones(2, 3).shape))
print(torch.float32, torch.int64, repr(torch.float64), torch.float32.is_floating_point, torch.int8.is_signed)
print(torch.ones(2).device, torch.device("cpu"), torch.ones(2).device.type, str(torch.ones(2).dtype))
print(torch.ones(2).type(), torch.ones(2, dtype=torch.int32).type(), torch.ones(2).type(torch.int64))
print(torch.zeros(2).is_floating_point(), torch.zeros(2).element_size(), torch.zeros(2, dtype=torch.int16).element_size())
print(torch.zeros(3, 4).nbytes, torch.zeros(3, 4).itemsize, torch.zeros(3, 4).ndim, torch.zeros(3, 4).dim())
print(len(torch.zeros(5, 2)), torch.zeros(5, 2).size(-1), torch.zeros(5, 2).numel())
try:
    f"{torch.tensor([1.0, 2.0]):.2f}"
except TypeError as e:
    print("TypeError", e)
print(bool(torch.tensor([1])), bool(torch.tensor(0.0)))
try:
    bool(torch.tensor([1, 2]))
except RuntimeError as e:
    print("RuntimeError", "ambiguous" in str(e))
print(round(torch.tensor(2.567).item(), 2), abs(torch.tensor(-2.0)), -torch.tensor(1), torch.tensor(7) // 2)
print(max(torch.tensor(3), torch.tensor(5)), sorted([torch.tensor(2.0), torch.tensor(1.0)]))
print(torch.tensor(3.0) == 3, 3 in torch.tensor([1, 2, 3]), torch.tensor([1.0, 2.0]).__len__())
print(hash(torch.float32) == hash(torch.float32), torch.tensor([1, 2]).numpy().dtype, torch.tensor(2.5).numpy())
print(str(torch.tensor([1.0])), repr(torch.tensor([], dtype=torch.int64)), torch.empty(0, 3))
