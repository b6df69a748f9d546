import io
import torch
import torch.nn as nn


class NetA(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 2, 3)
        self.fc1 = nn.Linear(8, 4)
        self.fc2 = nn.Linear(4, 3)


class NetB(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 2, 3)
        self.fc1 = nn.Linear(8, 4)
        self.fc3 = nn.Linear(4, 5)
        self.register_buffer("scale", torch.ones(5))


netA = NetA()
with torch.no_grad():
    for p in netA.parameters():
        p.copy_(torch.arange(p.numel(), dtype=p.dtype).view_as(p) / 10)
buf = io.BytesIO()
torch.save(netA.state_dict(), buf)
buf.seek(0)
netB = NetB()
res = netB.load_state_dict(torch.load(buf), strict=False)
print(res)
print(res.missing_keys, res.unexpected_keys)
print(type(res).__name__, list(res))
print(torch.equal(netB.conv1.weight, netA.conv1.weight), netB.fc1.bias)
buf.seek(0)
try:
    NetB().load_state_dict(torch.load(buf))
except RuntimeError as e:
    lines = str(e).splitlines()
    print(type(e).__name__, lines[0])
    print(lines[1].strip()[:60])
sd = netA.state_dict()
sd["fc1.weight"] = torch.zeros(4, 9)
try:
    NetB().load_state_dict(sd, strict=False)
except RuntimeError as e:
    print(str(e).splitlines()[1].strip())
renamed = {k.replace("fc2", "fc3"): v for k, v in netA.state_dict().items() if not k.startswith("fc2")}
print(NetB().load_state_dict(renamed, strict=False))
