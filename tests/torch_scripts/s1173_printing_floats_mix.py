# Float printing decisions: integers in float tensors, mixed magnitudes, negative zero, 1e16, precision=10, linewidth
import torch

print(torch.tensor([1.0, 2.0, -3.0]), torch.tensor([1e16, 1.0]), torch.tensor([-0.0, 0.0]))
print(torch.tensor([0.0001, 10000.0]), torch.tensor([0.001, 999.5]), torch.tensor([1e-4, 1e4, 1e5]))
print(torch.tensor([123456.0, 0.5]), torch.tensor([[1.5, float("nan")], [float("-inf"), 2.0]]))
print(torch.tensor([1.0, float("inf")]), torch.tensor([100.0, 1e-10]), torch.tensor(1e-10), torch.tensor(123456789.0))
print(torch.tensor([2.0 ** 60, 3.0]), torch.tensor([0.1, 0.2, 0.3]) * 3, torch.tensor([1 / 3], dtype=torch.float32))
torch.set_printoptions(precision=10)
print(torch.tensor([1 / 3, 2 / 3]), torch.tensor([1 / 3], dtype=torch.float32))
torch.set_printoptions(precision=4, linewidth=40)
print(torch.arange(12.0) / 7)
torch.set_printoptions(profile="default")
print(torch.arange(1001.0).view(7, 143)[:, :4], torch.ones(3, 1001).shape)
print(torch.full((2, 2), 7.25, dtype=torch.float16), torch.tensor([1e-5], dtype=torch.float32))
