import torch
import torch.nn as nn

log = []
net = nn.Sequential(nn.Linear(3, 2), nn.Tanh(), nn.Linear(2, 1))
with torch.no_grad():
    for p in net.parameters():
        p.copy_(torch.linspace(-0.5, 0.5, p.numel()).reshape(p.shape))


def pre(mod, args):
    log.append(("pre", type(mod).__name__, tuple(args[0].shape)))
    return (args[0] * 2,)


def fwd(mod, args, out):
    log.append(("fwd", type(mod).__name__))
    return out + 1


def bwd_pre(mod, grad_out):
    log.append(("bwd_pre", type(mod).__name__, round(grad_out[0].sum().item(), 4)))


def bwd(mod, grad_in, grad_out):
    log.append(("bwd", type(mod).__name__, [None if g is None else tuple(g.shape) for g in grad_in]))


h1 = net[0].register_forward_pre_hook(pre)
h2 = net[2].register_forward_hook(fwd)
h3 = net[1].register_full_backward_pre_hook(bwd_pre)
h4 = net[0].register_full_backward_hook(bwd)
x = torch.tensor([[1.0, 2.0, 3.0]], requires_grad=True)
y = net(x)
y.backward()
for entry in log:
    print(entry)
print(y, x.grad)
for h in (h1, h2, h3, h4):
    h.remove()
print(net(x), len(net[0]._forward_pre_hooks), len(net[0]._backward_hooks))
acts = {}
handles = [m.register_forward_hook(lambda m, i, o, n=n: acts.__setitem__(n, o.detach()))
           for n, m in net.named_modules() if n]
net(x)
print({k: v.round(decimals=4) for k, v in acts.items()})
