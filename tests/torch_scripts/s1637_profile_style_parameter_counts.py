# model summary by hand: parameter counts per module, trainable vs frozen, buffers, dtype sizes
import torch
import torch.nn as nn

model = nn.Sequential(nn.Conv2d(3, 8, 3), nn.BatchNorm2d(8), nn.ReLU(), nn.Flatten(),
                      nn.Linear(8 * 4 * 4, 10))
for p in model[0].parameters():
    p.requires_grad_(False)
for name, mod in model.named_children():
    n = sum(p.numel() for p in mod.parameters(recurse=False))
    print(name, type(mod).__name__, n)
total = sum(p.numel() for p in model.parameters())
trainable = sum(p.numel() for p in model.parameters() if p.requires_grad)
print(total, trainable, sum(b.numel() for b in model.buffers()))
print(sum(p.numel() * p.element_size() for p in model.parameters()))
out = model(torch.ones(2, 3, 6, 6))
print(out.shape, out.dtype)
model.half() if False else model.float()
print(next(model.parameters()).dtype, model[4].weight.dtype)
