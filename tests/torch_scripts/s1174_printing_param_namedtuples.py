# Printing Parameters, return_types named tuples, grad_fn objects, dtype/device/Size objects, lists of tensors
import torch
import torch.nn as nn

p = nn.Parameter(torch.tensor([1.0, 2.0]))
print(p)
print(nn.Parameter(torch.tensor([1, 2]), requires_grad=False))
print(repr(nn.Parameter(torch.ones(2, 2, dtype=torch.float32))))
print(torch.topk(torch.tensor([3.0, 1.0, 2.0]), 2))
print(torch.sort(torch.tensor([[2, 1], [0, 5]]), dim=1))
print(torch.linalg.slogdet(torch.eye(2) * 2))
print(torch.float64, torch.int8, torch.device("cpu"), torch.Size([]), torch.Size([3]), torch.tensor(1).shape)
print(str(torch.float32), repr(torch.complex128), torch.get_default_dtype(), torch.zeros(1).device, torch.zeros(1).layout)
print([torch.tensor(1.0), torch.tensor([2, 3])], (torch.tensor(True),), {"k": torch.zeros(1)})
print(torch.tensor([1.5]).grad_fn, (p * 2).grad_fn.__class__.__name__, torch.tensor([1.0], requires_grad=True))
print(torch.tensor([[1.0, 2.0]], requires_grad=True).sum(1), torch.tensor([1j], dtype=torch.complex64), torch.zeros(2, 0, 3))
print(torch.linalg.eigh(torch.eye(2)), torch.aminmax(torch.tensor([1, 5, 3])))
