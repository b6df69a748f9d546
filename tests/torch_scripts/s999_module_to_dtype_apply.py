# module.to(dtype) / .double() / .half() / .float(), apply with init, named_modules memo, get_submodule/get_parameter
import torch
import torch.nn as nn

net = nn.Sequential(nn.Linear(2, 3), nn.BatchNorm1d(3), nn.Sequential(nn.ReLU(), nn.Linear(3, 1)))
net.float()
print({p.dtype for p in net.parameters()}, net[1].num_batches_tracked.dtype, net[1].running_mean.dtype)
net.to(torch.float64)
print(net[0].weight.dtype, net[1].num_batches_tracked.dtype)
net.half()
print(net[2][1].bias.dtype)
net.double()
def init(m):
    if isinstance(m, nn.Linear):
        nn.init.constant_(m.weight, 0.1)
        nn.init.zeros_(m.bias)
print(net.apply(init) is net)
print(net(torch.ones(4, 2)).view(-1))
print([n for n, _ in net.named_modules()])
print([n for n, _ in net.named_modules(prefix="model")][:3])
print(net.get_submodule("2.1"), net.get_parameter("2.1.weight").shape, net.get_buffer("1.running_var"))
try:
    net.get_submodule("3")
except AttributeError as e:
    print(e)
shared = nn.Linear(1, 1)
twice = nn.Sequential(shared, shared)
print(len(list(twice.modules())), len(list(twice.named_modules(remove_duplicate=False))), len(list(twice.parameters())))
print(net.training, net.eval().training, net[2][0].training, net.train(False) is net)
print(sum(p.numel() for p in net.parameters() if p.requires_grad), net.requires_grad_(False)[0].weight.requires_grad)
