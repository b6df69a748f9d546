# Feature extraction with forward hooks storing detached activations, then removing hooks; gradients of features
import torch
import torch.nn as nn

model = nn.Sequential(nn.Conv2d(1, 2, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(2, 3))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.linspace(-1, 1, p.numel()).view_as(p) * (i + 1) / 4)
feats = {}
def save(name):
    def hook(mod, inp, out):
        feats[name] = out.detach()
    return hook
handles = [model[i].register_forward_hook(save(n)) for i, n in [(1, "relu"), (3, "flat")]]
x = torch.arange(16.0).view(1, 1, 4, 4) / 10
y = model(x)
print({k: tuple(v.shape) for k, v in feats.items()}, feats["flat"], y)
for h in handles:
    h.remove()
feats.clear()
model(x)
print(feats)
acts = []
def keep(m, i, o):
    o.retain_grad()
    acts.append(o)
h = model[1].register_forward_hook(keep)
model(x).sum().backward()
print(acts[0].grad.shape, round(acts[0].grad.sum().item(), 8))
h.remove()
