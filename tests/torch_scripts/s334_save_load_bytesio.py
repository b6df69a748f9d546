import io
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(2, 3, 3)
        self.bn = nn.BatchNorm1d(3)
        self.fc = nn.Linear(3 * 4, 2)
        self.register_buffer("scale", torch.tensor(2.0))
        self.register_buffer("tmp", torch.zeros(1), persistent=False)

    def forward(self, x):
        return self.fc(torch.relu(self.bn(self.conv(x))).flatten(1)) * self.scale


torch.manual_seed(1)
net = Net()
x = torch.linspace(-1, 1, 2 * 2 * 6).view(2, 2, 6)
opt = torch.optim.AdamW(net.parameters(), lr=0.01)
sched = torch.optim.lr_scheduler.StepLR(opt, 1, 0.5)
for _ in range(2):
    opt.zero_grad()
    net(x).pow(2).mean().backward()
    opt.step()
    sched.step()
print(list(net.state_dict().keys()))
buf = io.BytesIO()
torch.save({"model": net.state_dict(), "opt": opt.state_dict(), "sched": sched.state_dict(), "epoch": 2, "note": "hi"}, buf)
buf.seek(0)
ck = torch.load(buf, weights_only=True)
print(sorted(ck.keys()), ck["epoch"], ck["note"])
net2 = Net()
res = net2.load_state_dict(ck["model"])
print(res)
net.eval(); net2.eval()
print(torch.equal(net(x), net2(x)), net2.bn.num_batches_tracked)
opt2 = torch.optim.AdamW(net2.parameters(), lr=0.01)
opt2.load_state_dict(ck["opt"])
print(opt2.state_dict()["param_groups"][0]["lr"], len(opt2.state), opt2.state[net2.fc.weight]["step"])
sd = ck["model"]
sd.pop("fc.bias")
sd["extra"] = torch.ones(1)
r = net2.load_state_dict(sd, strict=False)
print(r.missing_keys, r.unexpected_keys)
try:
    net2.load_state_dict(sd)
except RuntimeError as e:
    print("RuntimeError:", str(e).splitlines()[0])
b2 = io.BytesIO()
torch.save([torch.arange(3), torch.tensor([1.5], dtype=torch.float32), {"n": torch.ones(2, 2)}], b2)
b2.seek(0)
lst = torch.load(b2)
print(lst, [t.dtype for t in lst[:2]])
t = torch.arange(6.0)
v = t[2:4]
b3 = io.BytesIO()
torch.save({"base": t, "view": v}, b3)
b3.seek(0)
d = torch.load(b3)
d["view"][0] = 100
print(d["base"])
try:
    net2.fc.load_state_dict({"weight": torch.ones(3, 3), "bias": torch.ones(2)})
except RuntimeError as e:
    print("RuntimeError:", str(e).splitlines()[1].strip())
