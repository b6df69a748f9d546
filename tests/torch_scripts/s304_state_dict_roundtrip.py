import io
import copy
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(2, 3, 3)
        self.bn = nn.BatchNorm1d(3)
        self.fc = nn.Linear(3, 1)
        self.register_buffer("steps", torch.tensor(0))

    def forward(self, x):
        return self.fc(self.bn(self.conv(x)).mean(-1))


torch.manual_seed(0)
a = Net()
b = Net()
print(any(not torch.equal(p, q) for p, q in zip(a.parameters(), b.parameters())) or "same")
sd = a.state_dict()
print(list(sd.keys()))
print({k: tuple(v.shape) for k, v in sd.items()})
print(sd["bn.num_batches_tracked"].dtype, sd["steps"].dtype)
b.load_state_dict(sd)
print(all(torch.equal(p, q) for p, q in zip(a.state_dict().values(), b.state_dict().values())))
buf = io.BytesIO()
torch.save({"model": a.state_dict(), "epoch": 3, "opt": torch.optim.SGD(a.parameters(), 0.1).state_dict()}, buf)
buf.seek(0)
ck = torch.load(buf, weights_only=True)
print(sorted(ck), ck["epoch"], ck["opt"]["param_groups"][0]["lr"], ck["opt"]["param_groups"][0]["params"])
c = Net()
res = c.load_state_dict(ck["model"])
print(res, type(res).__name__)
# sd tensors share storage with parameters (no copy)
sd["fc.bias"].fill_(5.0)
print(a.fc.bias)
sdc = copy.deepcopy(a.state_dict())
sdc["fc.bias"].fill_(-1.0)
print(a.fc.bias.item())
bad = dict(sd)
bad["fc.weight"] = torch.zeros(2, 3)
del bad["steps"]
bad["extra"] = torch.ones(1)
try:
    c.load_state_dict(bad)
except RuntimeError as e:
    print(e)
r = c.load_state_dict({k: v for k, v in sd.items() if k.startswith("conv")}, strict=False)
print(r.missing_keys, r.unexpected_keys)
x = torch.ones(2, 2, 5)
a.eval(); c.eval()
c.load_state_dict(a.state_dict())
print(torch.equal(a(x), c(x)))
print(a.state_dict(prefix="net.", keep_vars=True)["net.fc.weight"].requires_grad)
opt = torch.optim.Adam(a.parameters(), lr=1e-3)
a(x).sum().backward()
opt.step()
osd = opt.state_dict()
print(sorted(osd["state"][0].keys()), osd["state"][0]["step"])
opt2 = torch.optim.Adam(c.parameters(), lr=5.0)
opt2.load_state_dict(osd)
print(opt2.param_groups[0]["lr"], opt2.state[next(iter(c.parameters()))]["exp_avg"].shape)
