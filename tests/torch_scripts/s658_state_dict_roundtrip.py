import io
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(2, 3), nn.BatchNorm1d(3), nn.ReLU())
        self.head = nn.Linear(3, 1)
        self.register_buffer("steps", torch.tensor(0))
        self.register_buffer("scratch", torch.zeros(2), persistent=False)

    def forward(self, x):
        return self.head(self.body(x))


net = Net()
sd = net.state_dict()
print(list(sd.keys()))
print(sd["body.1.num_batches_tracked"], sd["steps"].dtype)
other = Net()
with torch.no_grad():
    for p in other.parameters():
        p.fill_(0.5)
res = other.load_state_dict(sd)
print(res)
print(all(torch.equal(a, b) for a, b in zip(net.state_dict().values(), other.state_dict().values())))
partial = {k: v for k, v in sd.items() if k.startswith("head")}
res = other.load_state_dict(partial, strict=False)
print(res.missing_keys[:3], res.unexpected_keys)
try:
    other.load_state_dict({"head.weight": torch.zeros(2, 3)}, strict=False)
except RuntimeError as e:
    print("RuntimeError", str(e).splitlines()[0])
try:
    other.load_state_dict({"bogus": torch.zeros(1)})
except RuntimeError as e:
    print("RuntimeError", str(e).splitlines()[0])
buf = io.BytesIO()
torch.save(net.state_dict(), buf)
buf.seek(0)
loaded = torch.load(buf)
print(type(loaded).__name__, list(loaded.keys()) == list(sd.keys()))
opt = torch.optim.Adam(net.parameters(), lr=0.01)
net.train()
net(torch.tensor([[1.0, 2.0], [3.0, 1.0]])).sum().backward()
opt.step()
osd = opt.state_dict()
print(sorted(osd.keys()), osd["param_groups"][0]["params"], sorted(osd["state"][0].keys()))
opt2 = torch.optim.Adam(Net().parameters(), lr=0.5)
opt2.load_state_dict(osd)
print(opt2.param_groups[0]["lr"], opt2.state_dict()["state"][0]["step"])
