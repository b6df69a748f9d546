import torch
import torch.nn as nn

class Block(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.fc = nn.Linear(d, d)
        self.act = nn.ReLU()
    def forward(self, x):
        return self.act(self.fc(x)) + x

model = nn.Sequential(Block(3), nn.Sequential(Block(3), nn.Identity()), nn.Linear(3, 1))

def init(m):
    if isinstance(m, nn.Linear):
        nn.init.constant_(m.weight, 0.1)
        nn.init.zeros_(m.bias)
model.apply(init)
for name, m in model.named_modules():
    print(repr(name), type(m).__name__)
print([n for n, _ in model.named_modules(prefix="net")][:3])
shared = nn.ReLU()
dup = nn.Sequential(shared, shared)
print(len(list(dup.named_modules())), len(list(dup.named_modules(remove_duplicate=False))))

calls = []
def fwd_hook(mod, args, kwargs, out):
    calls.append((type(mod).__name__, tuple(args[0].shape), sorted(kwargs)))
handles = [m.register_forward_hook(fwd_hook, with_kwargs=True) for m in model.modules() if isinstance(m, Block)]
x = torch.arange(6.0).view(2, 3) / 6
y = model(x)
print(y.detach().round(decimals=4).flatten().tolist())
print(calls)
for h in handles:
    h.remove()
model(x)
print(len(calls))
print(sum(p.numel() for p in model.parameters()), len(list(model.children())))
