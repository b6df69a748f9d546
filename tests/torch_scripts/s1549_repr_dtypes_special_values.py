# repr of tensors: dtypes shown or not, empty shapes, 0-d, inf/nan, complex, grads
import torch

print(torch.tensor(3), torch.tensor(3.0), torch.tensor(True), torch.tensor(2 + 3j))
print(torch.tensor([1, 2], dtype=torch.int32), torch.tensor([1.0], dtype=torch.float32))
print(torch.tensor([1.5], dtype=torch.float16), torch.tensor([1, 2], dtype=torch.uint8))
print(torch.zeros(0), torch.zeros(2, 0), torch.zeros(0, 3, dtype=torch.int64))
print(torch.tensor([float("inf"), -float("inf"), float("nan"), 0.0]))
print(torch.tensor([1.0, 2.0], requires_grad=True))
print(torch.tensor([1.0, 2.0], requires_grad=True) * 2)
print(torch.tensor([1.0 + 0.5j, -2.0 - 1j]), torch.tensor([1j], dtype=torch.complex64))
print(torch.tensor([[1e-5, 1.0], [100.0, 1000.0]]))
print(torch.tensor([123456789.0]), torch.tensor([0.1, 0.25]))
print(torch.tensor([-0.0, 0.0]), torch.tensor([1e-300]))
print(repr(torch.tensor([2.0]).dtype), str(torch.int8), torch.float32.is_floating_point)
print(torch.tensor([[True, False]]).__repr__())
print(torch.tensor(7).item(), torch.tensor([[1.5]]).item(), torch.tensor(2.5).tolist())
print(f"{torch.tensor(2.5):.3f}", format(torch.tensor(3), "d"))
try:
    print(f"{torch.tensor([1.0, 2.0]):.2f}")
except TypeError as e:
    print(e)
