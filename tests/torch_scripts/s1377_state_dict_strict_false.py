# state_dict round trip, load_state_dict strict=False: missing and unexpected keys
import torch
import torch.nn as nn

class Net(nn.Module):
    def __init__(self, extra=False):
        super().__init__()
        self.enc = nn.Linear(2, 3)
        self.bn = nn.BatchNorm1d(3)
        if extra:
            self.head = nn.Linear(3, 1)

a = Net()
with torch.no_grad():
    a.enc.weight.fill_(0.5)
    a.bn.running_mean.fill_(2.0)
sd = a.state_dict()
print(list(sd.keys()))
b = Net(extra=True)
res = b.load_state_dict(sd, strict=False)
print(res.missing_keys, res.unexpected_keys)
print(b.enc.weight, b.bn.running_mean)
sd2 = dict(sd)
sd2["bogus"] = torch.zeros(1)
try:
    Net().load_state_dict(sd2)
except RuntimeError as e:
    print(str(e).splitlines()[0])
    print(str(e).splitlines()[1].strip())
sd3 = dict(sd)
sd3["enc.weight"] = torch.zeros(4, 2)
try:
    Net().load_state_dict(sd3)
except RuntimeError as e:
    print(str(e).splitlines()[1].strip())
