# Model introspection as utility scripts do it: dir(model) + getattr to find submodules and
# parameters by name, freezing the ones a config lists, counting trainable parameters per
# block, and training only the rest with a LinearLR warmup then ExponentialLR
import numpy as np
import torch
import torch.nn as nn

rng = np.random.default_rng(951)


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Linear(4, 8)
        self.block1 = nn.Sequential(nn.Linear(8, 8), nn.Tanh())
        self.block2 = nn.Sequential(nn.Linear(8, 8), nn.Tanh())
        self.head = nn.Linear(8, 2)
        self.temperature = nn.Parameter(torch.ones(1))
        self.register_buffer("calls", torch.zeros((), dtype=torch.long))

    def forward(self, x):
        self.calls += 1
        return self.head(self.block2(self.block1(torch.relu(self.stem(x))))) / self.temperature


model = Model()
with torch.no_grad():
    for n, p in model.named_parameters():
        if n != "temperature":
            p.copy_(torch.from_numpy(rng.normal(0, 0.4, tuple(p.shape))))
blocks = [a for a in dir(model) if isinstance(getattr(model, a, None), nn.Module) and a != "_modules"]
params = [a for a in dir(model) if isinstance(getattr(model, a, None), nn.Parameter)]
print(blocks, params, "calls" in dir(model))
config = {"freeze": ["stem", "block1"]}
for name in config["freeze"]:
    getattr(model, name).requires_grad_(False)
for b in blocks:
    m = getattr(model, b)
    print(f"{b:7s} trainable {sum(p.numel() for p in m.parameters() if p.requires_grad):4d}")
opt = torch.optim.SGD([p for p in model.parameters() if p.requires_grad], lr=0.1)
sched = torch.optim.lr_scheduler.ChainedScheduler([
    torch.optim.lr_scheduler.LinearLR(opt, start_factor=0.5, total_iters=2),
    torch.optim.lr_scheduler.ExponentialLR(opt, gamma=0.9)])
X = torch.from_numpy(rng.standard_normal((20, 4)))
Y = torch.from_numpy(rng.integers(0, 2, 20))
for it in range(5):
    opt.zero_grad()
    loss = nn.functional.cross_entropy(model(X), Y)
    loss.backward()
    opt.step()
    sched.step()
    print(it, f"{loss.item():.6f}", f"{sched.get_last_lr()[0]:.6f}", model.stem.weight.grad)
print(model.calls.item(), model.temperature.detach().numpy().round(5))
