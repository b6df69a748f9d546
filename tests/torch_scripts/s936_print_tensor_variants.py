# printing tensors users meet: requires_grad, grad_fn, dtype suffixes, big/small mixes, ints, empty
import torch

print(torch.tensor([1.0, 2.0], requires_grad=True))
print(torch.tensor([1.0, 2.0], requires_grad=True) * 2)
print(torch.tensor([1, 2], dtype=torch.int32), torch.tensor([1.5], dtype=torch.float32))
print(torch.tensor([1e-5, 1.0, 1e5]), torch.tensor([123456.0, 0.5]))
print(torch.tensor([[1e10]]), torch.tensor([0.1, 0.25]), torch.tensor(-0.0))
print(torch.empty(0, 3), torch.zeros(2, 0, dtype=torch.int64))
print(torch.tensor([True]), torch.tensor([float("inf"), -float("inf"), float("nan"), 1.0]))
print(repr(torch.tensor(3)), str(torch.tensor([2.5], dtype=torch.float16)))
print(torch.tensor([1.0, 2.0]).sum(), torch.tensor([[1, 2], [3, 4]]).float().mean(dim=0))
print(torch.arange(3.0).requires_grad_().exp().round(decimals=3))
