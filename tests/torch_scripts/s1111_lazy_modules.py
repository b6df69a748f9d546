# Lazy modules: LazyLinear infers in_features at the first call, LazyConv1d, has_uninitialized_params
import torch
import torch.nn as nn

m = nn.Sequential(nn.LazyLinear(4), nn.ReLU(), nn.LazyLinear(2))
print(m)
print(m[0].has_uninitialized_params(), type(m[0].weight).__name__)
m(torch.ones(3, 5))
print(m[0].weight.shape, m[2].weight.shape, type(m[0]).__name__, m[0].in_features)
print(m)
c = nn.LazyConv1d(6, kernel_size=3)
print(c(torch.ones(2, 4, 10)).shape, c.weight.shape, type(c).__name__)
bn = nn.LazyBatchNorm1d()
print(bn(torch.arange(12.0).view(4, 3)).shape, bn.running_mean)
