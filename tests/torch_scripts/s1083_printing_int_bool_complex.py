# repr of int64 with large values, int8, uint8, bool, complex, empty shapes, 0-d, grad tags
import torch

print(torch.tensor([1, -20000000000, 3]))
print(torch.tensor([[1, 2], [3, 4]], dtype=torch.int8), torch.tensor([255, 0], dtype=torch.uint8))
print(torch.tensor([[True, False]]), torch.tensor(True))
print(torch.tensor([1 + 2j, -0.5j]), torch.tensor(3 - 4j))
print(torch.empty(0, 3), torch.zeros(2, 0, dtype=torch.int32), torch.ones(0, dtype=torch.bool))
print(torch.tensor(2.5, requires_grad=True) * 2)
print(torch.tensor([1.0, 2.0], dtype=torch.float32, requires_grad=True))
print(torch.tensor([0.1, 0.25], dtype=torch.float16))
print(torch.tensor([1.0, 2.0]).double().to(torch.int16))
print(repr(torch.tensor([[1.5]])), str(torch.tensor(7)))
print(torch.tensor([123456789.0, 1.0]), torch.tensor([0.001, 1000.0]))
print(torch.tensor([1e-8, 1.0]), torch.tensor([100000.0, 1.5]))
