# The boilerplate of many training scripts: device selection, cudnn flags, seeding,
# torch.compile(model), checkpoint.checkpoint blocks, autocast disabled on CPU, a profiler
# context, enumerate(loader, 1) with running averages and a final evaluation
import random
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint
from torch.utils.data import DataLoader, TensorDataset

random.seed(0)
np.random.seed(0)
torch.manual_seed(0)
torch.backends.cudnn.deterministic = True
torch.backends.cudnn.benchmark = False
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
print(device, torch.cuda.device_count())
rng = np.random.default_rng(581)
X = torch.from_numpy(rng.standard_normal((40, 6)))
Y = torch.from_numpy((rng.standard_normal(40) > 0).astype(np.int64))


class Block(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.lin = nn.Linear(d, d)
        self.norm = nn.LayerNorm(d)

    def forward(self, x):
        return x + F.relu(self.norm(self.lin(x)))


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.inp = nn.Linear(6, 12)
        self.blocks = nn.ModuleList(Block(12) for _ in range(2))
        self.out = nn.Linear(12, 2)

    def forward(self, x):
        x = self.inp(x)
        for b in self.blocks:
            x = checkpoint(b, x, use_reentrant=False)
        return self.out(x)


model = Net().to(device)
with torch.no_grad():
    for p in model.parameters():
        p.copy_(torch.from_numpy(rng.normal(0, 0.3, tuple(p.shape))))
cmodel = torch.compile(model)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
loader = DataLoader(TensorDataset(X, Y), batch_size=8)
for epoch in range(3):
    model.train()
    running = 0.0
    for i, (xb, yb) in enumerate(loader, 1):
        xb, yb = xb.to(device), yb.to(device, non_blocking=True)
        with torch.autocast(device_type="cpu", enabled=False):
            loss = F.cross_entropy(cmodel(xb), yb)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        running += loss.item()
        if i % 5 == 0:
            print(f"[{epoch + 1}, {i:3d}] loss: {running / 5:.5f}")
            running = 0.0
model.eval()
with torch.no_grad(), torch.profiler.profile() as prof:
    logits = model(X.to(device))
print((logits.argmax(1) == Y).sum().item(), len(Y))
print(logits[:2].cpu().numpy().round(5))
print(type(prof).__name__, torch.get_num_threads() > 0)
