# forward pre-hooks and forward hooks that modify inputs/outputs; removing handles
import torch
import torch.nn as nn

lin = nn.Linear(2, 2)
with torch.no_grad():
    lin.weight.copy_(torch.eye(2)); lin.bias.zero_()
h1 = lin.register_forward_pre_hook(lambda m, inp: (inp[0] * 2,))
h2 = lin.register_forward_hook(lambda m, inp, out: out + 1)
x = torch.tensor([[1.0, -1.0]])
print(lin(x))
h1.remove()
print(lin(x))
h2.remove()
print(lin(x))
def kw_hook(m, args, kwargs):
    return args, kwargs
h3 = lin.register_forward_pre_hook(kw_hook, with_kwargs=True)
print(lin(x))
acts = {}
net = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
for name, mod in net.named_modules():
    if isinstance(mod, nn.ReLU):
        mod.register_forward_hook(lambda m, i, o, name=name: acts.__setitem__(name, o.shape))
net(torch.ones(4, 2))
print(acts)
