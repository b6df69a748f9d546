# cumsum/cumprod with dtype=, reverse cumsum by flip, running mean, cummax on ints and bools
import torch

x = torch.tensor([1, 2, 3, 4], dtype=torch.int32)
print(torch.cumsum(x, 0), torch.cumsum(x, 0).dtype, torch.cumsum(x, 0, dtype=torch.float64))
print(x.cumprod(0), torch.cumsum(torch.tensor([True, False, True]), 0).dtype)
f = torch.tensor([1.0, 2.0, 3.0, 4.0])
print(f.flip(0).cumsum(0).flip(0), f.cumsum(0) / torch.arange(1, 5))
print(torch.cummax(torch.tensor([True, False, True]), 0))
print(torch.cummin(torch.tensor([3, 1, 2], dtype=torch.int16), 0))
m = torch.arange(6.0).reshape(2, 3)
print(m.cumsum(-1), m.cumprod(dim=0), torch.logcumsumexp(m, 1).round(decimals=4))
print(torch.cumsum(torch.zeros(0), 0), torch.tensor(5.0).cumsum(0))
print(torch.diff(f.cumsum(0), prepend=torch.tensor([0.0])))
