# load_state_dict: strict=False report, unexpected/missing keys, assign=True, shape mismatch
import torch
import torch.nn as nn

net = nn.Sequential(nn.Linear(2, 2), nn.BatchNorm1d(2))
with torch.no_grad():
    net[0].weight.copy_(torch.tensor([[0.5, -0.5], [1.0, 2.0]]))
    net[0].bias.copy_(torch.tensor([0.1, 0.2]))
sd = net.state_dict()
print(list(sd))
sd2 = {k: v.clone() + 1 for k, v in sd.items() if "running_var" not in k}
sd2["extra.weight"] = torch.ones(1)
res = net.load_state_dict(sd2, strict=False)
print(res.missing_keys, res.unexpected_keys, type(res).__name__)
print(net[0].bias)
try:
    net.load_state_dict(sd2)
except RuntimeError as e:
    print(str(e)[:200])
bad = dict(sd)
bad["0.weight"] = torch.ones(3, 2)
try:
    net.load_state_dict(bad)
except RuntimeError as e:
    print(str(e)[:220])
new = {k: v.clone() * 0 for k, v in sd.items()}
w_before = net[0].weight
net.load_state_dict(new, assign=True)
print(net[0].weight is w_before, type(net[0].weight).__name__, net[0].weight.requires_grad)
print(net.state_dict(keep_vars=True)["0.weight"].requires_grad, net[1].num_batches_tracked)
