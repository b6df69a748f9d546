# load_state_dict strict=False returns missing/unexpected keys; buffers persistent=False skip
import torch
import torch.nn as nn

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2, 2)
        self.bn = nn.BatchNorm1d(2)
        self.register_buffer("scale", torch.tensor(2.0))
        self.register_buffer("tmp", torch.zeros(1), persistent=False)

net = Net()
print(list(net.state_dict().keys()))
sd = {"fc.weight": torch.eye(2), "extra": torch.ones(1)}
res = net.load_state_dict(sd, strict=False)
print(res)
print(res.missing_keys, res.unexpected_keys)
print(net.fc.weight)
try:
    net.load_state_dict(sd)
except RuntimeError as e:
    print("RuntimeError", str(e).splitlines()[0])
print([n for n, _ in net.named_buffers()])
