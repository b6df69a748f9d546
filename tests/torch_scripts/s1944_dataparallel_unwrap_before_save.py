# The boilerplate of multi-GPU-ready training scripts run on a CPU box: wrap in
# nn.DataParallel only when several GPUs exist, unwrap with isinstance against
# (DataParallel, DistributedDataParallel) before saving, and strip a "module." prefix
# from a checkpoint saved by a wrapped model
import io
import torch
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel

model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.linspace(-1, 1, p.numel()).view_as(p) * (i + 1) * 0.3)
if torch.cuda.device_count() > 1:
    model = nn.DataParallel(model)
wrapped = nn.DataParallel(model)
print(torch.cuda.is_available(), torch.cuda.device_count(), type(wrapped).__name__)


def unwrap(m):
    return m.module if isinstance(m, (nn.DataParallel, DistributedDataParallel)) else m


x = torch.sin(torch.arange(9.0)).view(3, 3)
opt = torch.optim.SGD(wrapped.parameters(), lr=0.1)
for step in range(3):
    loss = wrapped(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.6f}")
print(list(wrapped.state_dict())[:2], list(unwrap(wrapped).state_dict())[:2])
buf = io.BytesIO()
torch.save(wrapped.state_dict(), buf)
buf.seek(0)
sd = torch.load(buf)
clean = {k.removeprefix("module."): v for k, v in sd.items()}
fresh = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))
print(fresh.load_state_dict(clean), torch.equal(fresh(x), unwrap(wrapped)(x)))
try:
    DistributedDataParallel(fresh)
except ValueError as e:
    print("ValueError", e)
