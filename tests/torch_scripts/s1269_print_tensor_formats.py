# printing: large/small magnitudes, sci mode, ints, bools, empty tensors, requires_grad, dtype suffix
import torch

print(torch.tensor([1e-5, 1.0, 1e5]))
print(torch.tensor([1e-10, 1.0]))
print(torch.tensor([123456789.0, 1.0]))
print(torch.tensor([0.1, 0.25], dtype=torch.float32))
print(torch.tensor([1, 2], dtype=torch.int32), torch.tensor([True]), torch.tensor([], dtype=torch.int64))
print(torch.zeros(2, 0), torch.tensor(3.5, requires_grad=True))
print(torch.tensor([float("inf"), float("-inf"), float("nan"), 1.5]))
print(torch.tensor([1.0, 2.0]) * torch.tensor([1.0, 2.0], requires_grad=True))
print(torch.arange(12.0).reshape(2, 2, 3))
print(repr(torch.tensor([-0.0, 0.0])), torch.tensor([2.0, 3.0], dtype=torch.float16))
