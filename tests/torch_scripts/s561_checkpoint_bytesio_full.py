import io
import torch
import torch.nn as nn

model = nn.Sequential(nn.Linear(2, 3), nn.BatchNorm1d(3), nn.Linear(3, 1))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.linspace(-0.5, 0.5, p.numel()).reshape(p.shape) * (i + 1))
opt = torch.optim.Adam(model.parameters(), lr=0.01)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
x = torch.linspace(-1, 1, 8).reshape(4, 2)
y = torch.tensor([[1.0], [0.0], [1.0], [0.5]])
for _ in range(3):
    opt.zero_grad()
    nn.functional.mse_loss(model(x), y).backward()
    opt.step()
    sched.step()
ckpt = {"epoch": 3, "model": model.state_dict(), "optimizer": opt.state_dict(), "scheduler": sched.state_dict(),
        "history": [0.5, 0.25], "note": "run-1"}
buf = io.BytesIO()
torch.save(ckpt, buf)
size = buf.tell()
print(size > 0)
buf.seek(0)
loaded = torch.load(buf, weights_only=True)
print(sorted(loaded), loaded["epoch"], loaded["note"], loaded["history"])
print(list(loaded["model"].keys()))
print(loaded["model"]["1.num_batches_tracked"], loaded["model"]["1.running_var"].round(decimals=5))
m2 = nn.Sequential(nn.Linear(2, 3), nn.BatchNorm1d(3), nn.Linear(3, 1))
o2 = torch.optim.Adam(m2.parameters(), lr=0.5)
s2 = torch.optim.lr_scheduler.StepLR(o2, step_size=10)
print(m2.load_state_dict(loaded["model"]))
o2.load_state_dict(loaded["optimizer"])
s2.load_state_dict(loaded["scheduler"])
print(o2.param_groups[0]["lr"], s2.last_epoch, s2.step_size, o2.state[m2[0].weight]["step"])
m2.eval(); model.eval()
print(torch.equal(m2(x), model(x)))
res = m2.load_state_dict({k: v for k, v in loaded["model"].items() if not k.startswith("2.")}, strict=False)
print(res.missing_keys, res.unexpected_keys)
try:
    m2.load_state_dict({"0.weight": torch.zeros(3, 2)})
except RuntimeError as e:
    print(str(e).splitlines()[0])
buf = io.BytesIO()
torch.save(model[0].weight.detach(), buf)
buf.seek(0)
t = torch.load(buf, map_location="cpu")
print(t.shape, t.requires_grad, t.device)
buf = io.BytesIO()
torch.save([torch.arange(3), {"a": torch.tensor(True)}], buf)
buf.seek(0)
print(torch.load(buf))
