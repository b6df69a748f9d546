import io

import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self, extra=False):
        super().__init__()
        self.fc = nn.Linear(3, 2)
        self.bn = nn.BatchNorm1d(2)
        if extra:
            self.head = nn.Linear(2, 1)


net = Net()
with torch.no_grad():
    net.fc.weight.copy_(torch.arange(6.0).reshape(2, 3) / 10)
    net.fc.bias.fill_(0.5)
net.bn(net.fc(torch.linspace(-1, 1, 12).reshape(4, 3)))
opt = torch.optim.Adam(net.parameters(), lr=1e-3)
net.fc(torch.ones(1, 3)).sum().backward()
opt.step()
buf = io.BytesIO()
torch.save({"epoch": 7, "model": net.state_dict(), "optim": opt.state_dict(), "note": "ckpt"}, buf)
buf.seek(0)
ckpt = torch.load(buf, weights_only=True)
print(ckpt["epoch"], ckpt["note"], list(ckpt["model"].keys()))
print(ckpt["model"]["bn.running_mean"].round(decimals=5), ckpt["model"]["bn.num_batches_tracked"])
print(sorted(ckpt["optim"]["state"][0].keys()), ckpt["optim"]["param_groups"][0]["lr"])
other = Net(extra=True)
res = other.load_state_dict(ckpt["model"], strict=False)
print(res.missing_keys, res.unexpected_keys)
print(torch.equal(other.fc.weight, net.fc.weight), other.bn.num_batches_tracked)
try:
    other.load_state_dict(ckpt["model"])
except RuntimeError as e:
    print("RuntimeError:", str(e).split("\n")[0], "|", str(e).split("\n")[1].strip())
bad = dict(ckpt["model"], **{"fc.weight": torch.zeros(3, 3)})
try:
    net.load_state_dict(bad)
except RuntimeError as e:
    print("RuntimeError:", str(e).split("\n")[1].strip())
opt2 = torch.optim.Adam(Net().parameters(), lr=0.5)
opt2.load_state_dict(ckpt["optim"])
print(opt2.param_groups[0]["lr"], opt2.state_dict()["state"][0]["step"])
sd = net.state_dict()
print(type(sd).__name__, sd["fc.bias"].requires_grad, sd["fc.weight"].is_leaf)
print(list(net.state_dict(prefix="m.", keep_vars=True).keys())[:2])
