# Module.double()/float()/half() and .to(dtype): parameters, buffers and their grads
import torch
import torch.nn as nn

m = nn.Sequential(nn.Linear(2, 2), nn.BatchNorm1d(2))
print({n: p.dtype for n, p in m.named_parameters()})
m.float()
print({n: p.dtype for n, p in m.named_parameters()}, m[1].running_mean.dtype, m[1].num_batches_tracked.dtype)
out = m(torch.ones(3, 2, dtype=torch.float32))
print(out.dtype)
m.to(torch.float64)
print(m[0].weight.dtype, m[1].running_var.dtype)
print(m(torch.ones(3, 2)).dtype)
