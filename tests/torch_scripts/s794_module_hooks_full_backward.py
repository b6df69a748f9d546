# Module hooks for debugging: forward pre-hook that rescales input, forward hook that records
# shapes, full backward hook printing grad norms, then removing handles
import torch
import torch.nn as nn

torch.manual_seed(0)
net = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 2))
log = []


def pre(mod, args):
    log.append(("pre", type(mod).__name__, tuple(args[0].shape)))
    return (args[0] * 0.5,)


def fwd(mod, args, out):
    log.append(("fwd", type(mod).__name__, tuple(out.shape)))


def bwd(mod, gin, gout):
    log.append(("bwd", type(mod).__name__, [None if g is None else tuple(g.shape) for g in gin],
                [tuple(g.shape) for g in gout]))


handles = [net[0].register_forward_pre_hook(pre)]
for m in net:
    handles.append(m.register_forward_hook(fwd))
    handles.append(m.register_full_backward_hook(bwd))
x = torch.ones(5, 4, requires_grad=True)
out = net(x)
out.sum().backward()
for entry in log:
    print(entry)
print(x.grad.shape, round(x.grad.abs().sum().item(), 6) >= 0)
for h in handles:
    h.remove()
log.clear()
net(x).sum().backward()
print("after remove", log)
print(net[0]._forward_hooks, len(net[0]._forward_pre_hooks))
