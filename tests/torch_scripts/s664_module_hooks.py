import torch
import torch.nn as nn

net = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
with torch.no_grad():
    net[0].weight.copy_(torch.tensor([[1.0, -1.0], [0.5, 0.5], [-1.0, 2.0]]))
    net[0].bias.zero_()
    net[2].weight.copy_(torch.tensor([[1.0, 2.0, 3.0]]))
    net[2].bias.fill_(0.1)
log = []


def pre(mod, args):
    log.append(("pre", type(mod).__name__, tuple(args[0].shape)))
    return (args[0] * 2,)


def fwd(mod, args, out):
    log.append(("fwd", type(mod).__name__, out.detach().sum().item()))


def bwd(mod, gin, gout):
    log.append(("bwd", type(mod).__name__, [None if g is None else tuple(g.shape) for g in gin], tuple(gout[0].shape)))


def bwd_pre(mod, gout):
    log.append(("bwd_pre", type(mod).__name__))
    return (gout[0] * 0.5,)


h1 = net[0].register_forward_pre_hook(pre)
h2 = net[1].register_forward_hook(fwd)
h3 = net[2].register_full_backward_hook(bwd)
h4 = net[2].register_full_backward_pre_hook(bwd_pre)
x = torch.tensor([[1.0, 2.0]], requires_grad=True)
out = net(x)
out.backward()
for entry in log:
    print(entry)
print(out, x.grad)
for h in (h1, h2, h3, h4):
    h.remove()
log.clear()
x.grad = None
net(x).backward()
print(log, x.grad)
k = net[0].register_forward_hook(lambda m, a, kw, o: log.append(sorted(kw)), with_kwargs=True)
net(x)
print(log)
k.remove()
g = net.register_forward_hook(lambda m, a, o: o * 0, always_call=True)
print(net(x))
g.remove()
