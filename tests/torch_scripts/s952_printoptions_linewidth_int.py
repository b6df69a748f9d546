# printing with linewidth and integer/bool tensors wrapping; torch.get_printoptions-like restore
import torch

torch.set_printoptions(linewidth=40)
print(torch.arange(20))
print(torch.arange(12.0).reshape(2, 6) / 7)
torch.set_printoptions(linewidth=80, precision=3)
print(torch.tensor([[1.23456, -100.5], [0.001, 7.0]]))
torch.set_printoptions(precision=4)
print(torch.linspace(0, 1, 5), torch.tensor([True, False] * 3))
torch.set_printoptions(threshold=4)
print(torch.arange(10).reshape(2, 5), torch.ones(2, 2, 3))
torch.set_printoptions(profile="default")
print(torch.arange(10).reshape(2, 5))
