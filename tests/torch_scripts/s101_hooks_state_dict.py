import torch
import torch.nn as nn

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2, 2)
        self.register_buffer("steps", torch.zeros((), dtype=torch.long))
        self.register_buffer("cache", torch.zeros(2), persistent=False)
    def forward(self, x):
        self.steps += 1
        return self.fc(x)

net = Net()
print(list(net.state_dict().keys()))
print(net.steps, net.cache)
for _ in range(3):
    net(torch.ones(1, 2))
print(net.steps.item(), net.state_dict()["steps"])
sd = net.state_dict()
sd2 = {k: v.clone() for k, v in sd.items()}
sd2["fc.bias"] = torch.tensor([5.0, 6.0])
res = net.load_state_dict(sd2)
print(res.missing_keys, res.unexpected_keys, net.fc.bias)
res = net.load_state_dict({"fc.weight": torch.eye(2)}, strict=False)
print(sorted(res.missing_keys), res.unexpected_keys)
try:
    net.load_state_dict({"fc.weight": torch.eye(3), "fc.bias": torch.zeros(2), "steps": torch.tensor(0)})
except RuntimeError as e:
    print("RuntimeError", "size mismatch" in str(e))
net.fc.weight.requires_grad_(False)
print([n for n, p in net.named_parameters() if p.requires_grad])
print(sum(p.numel() for p in net.parameters() if p.requires_grad))
print(net.get_submodule("fc"), net.get_parameter("fc.bias").shape, net.get_buffer("steps"))
m2 = nn.Sequential()
m2.add_module("first", nn.Linear(2, 3))
m2.register_module("act", nn.ReLU())
print(m2, len(m2), m2.first.out_features)
del m2.act
print(m2)
print(net.training, net.eval().training, net.fc.training, net.train().fc.training)
net.requires_grad_(False)
print(any(p.requires_grad for p in net.parameters()))
print(type(net.fc.weight).__name__, isinstance(net.fc.weight, torch.Tensor), isinstance(net.fc.weight, nn.Parameter))
p = nn.Parameter(torch.ones(2))
print(p, p.requires_grad, nn.Parameter(torch.ones(1), requires_grad=False))
print(dict(net.named_children()).keys(), [n for n, _ in net.named_modules()])
