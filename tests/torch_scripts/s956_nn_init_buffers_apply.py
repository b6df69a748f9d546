# Module.apply to reset parameters with fixed values, buffers() iteration, and named_modules prefixes
import torch
import torch.nn as nn

model = nn.Sequential(nn.Linear(2, 3), nn.BatchNorm1d(3), nn.Sequential(nn.Linear(3, 1)))
def init(m):
    if isinstance(m, nn.Linear):
        nn.init.constant_(m.weight, 0.1)
        nn.init.zeros_(m.bias)
model.apply(init)
print([n for n, _ in model.named_modules()])
print([n for n, _ in model.named_buffers()])
print(sum(b.numel() for b in model.buffers()), sum(p.numel() for p in model.parameters()))
model.train()
out = model(torch.tensor([[1.0, 2.0], [3.0, 5.0]]))
print(out, model[1].running_mean, model[1].num_batches_tracked)
print([n for n, _ in model.named_modules(prefix="net")][:3])
print([n for n, _ in model[2].named_parameters(prefix="head")])
