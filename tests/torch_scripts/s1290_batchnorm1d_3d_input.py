# BatchNorm1d on (N, C, L) input, and an error for wrong feature count
import torch
import torch.nn as nn

bn = nn.BatchNorm1d(2)
x = torch.tensor([[[1.0, 2.0, 3.0], [0.0, 0.0, 6.0]], [[4.0, 5.0, 6.0], [3.0, 3.0, 0.0]]])
print(bn(x))
print(bn.running_mean, bn.running_var)
try:
    bn(torch.ones(3, 3))
except RuntimeError as e:
    print("RuntimeError")
try:
    bn(torch.ones(1, 2))
except ValueError as e:
    print("ValueError", e)
