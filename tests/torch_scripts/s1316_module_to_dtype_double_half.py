# module.float()/double()/to(dtype): parameter dtypes and outputs
import torch
import torch.nn as nn

m = nn.Sequential(nn.Linear(2, 2), nn.BatchNorm1d(2))
m.float()
print({n: str(p.dtype) for n, p in m.state_dict().items()})
x32 = torch.ones(3, 2, dtype=torch.float32)
print(m(x32).dtype)
print(m(torch.ones(3, 2, dtype=torch.float64).float()).dtype)
m.to(torch.float64)
print(m[0].weight.dtype, m[1].num_batches_tracked.dtype)
