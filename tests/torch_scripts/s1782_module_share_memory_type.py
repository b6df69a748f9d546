# Module.type: the legacy cast of every parameter and buffer (integer buffers too)
import torch
import torch.nn as nn

model = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.Linear(4, 1))
out = model.type(torch.float32)
print(out is model)
print([p.dtype for p in model.parameters()])
print([(n, b.dtype) for n, b in model.named_buffers()])
model.type("torch.DoubleTensor")
print(model[0].weight.dtype, model[1].num_batches_tracked.dtype)
print(model(torch.ones(2, 3)).dtype)
m2 = nn.Linear(2, 2)
m2(torch.ones(1, 2)).sum().backward()
m2.type(torch.float32)
print(m2.weight.grad.dtype, isinstance(m2.weight, nn.Parameter), m2.weight.requires_grad)
print(type(m2.type(torch.float64)).__name__, m2.bias.dtype)
m3 = nn.Linear(2, 2).float().double()
print(m3.weight.dtype, m3.weight.type(), m3.weight.type(torch.float32).dtype)
