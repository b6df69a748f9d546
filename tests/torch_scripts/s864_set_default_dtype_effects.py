# What set_default_dtype changes: tensor of floats, arange with float step, nn.Linear weights,
# zeros, full with an int fill, get_default_dtype, and restoring it afterwards
import torch

old = torch.get_default_dtype()
torch.set_default_dtype(torch.float32)
print(torch.tensor([1.0]).dtype, torch.arange(0, 1, 0.5).dtype, torch.zeros(1).dtype, torch.nn.Linear(1, 1).weight.dtype)
print(torch.full((1,), 3).dtype, torch.full((1,), 3.0).dtype, torch.tensor(1).dtype, torch.linspace(0, 1, 3).dtype)
print((torch.tensor([1]) / 2).dtype, torch.tensor([1, 2]).mean(dtype=None if False else torch.float32).dtype, torch.randn(2).dtype)
print(torch.tensor(2.5) * torch.ones(2, dtype=torch.float64))
torch.set_default_dtype(torch.float64)
print(torch.tensor([1.0]).dtype, torch.arange(0.0, 1.0, 0.25).dtype, torch.nn.Linear(1, 1).bias.dtype, torch.empty(2).dtype)
print(torch.tensor([1.0], dtype=torch.float32) + 1.5, (torch.tensor([1]) * 1.5).dtype, torch.tensor(1.5 + 2j).dtype)
try:
    torch.set_default_dtype(torch.int64)
except TypeError as e:
    print("TypeError", str(e)[:60])
torch.set_default_dtype(old)
print(torch.get_default_dtype() == old)
