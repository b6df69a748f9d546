import torch
import torch.nn as nn

log = []
net = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.linspace(-1, 1, p.numel()).view_as(p) * (0.5 + i * 0.1))


def fwd_pre(mod, args):
    log.append(("pre", type(mod).__name__, args[0].shape))
    return (args[0] * 2,)


def fwd(mod, args, out):
    log.append(("fwd", type(mod).__name__, out.shape))
    return out + 1


def bwd(mod, gin, gout):
    log.append(("bwd", type(mod).__name__, [g.shape if g is not None else None for g in gin], gout[0].shape))


h1 = net[0].register_forward_pre_hook(fwd_pre)
h2 = net[2].register_forward_hook(fwd)
h3 = net[0].register_full_backward_hook(bwd)
h4 = net[2].register_full_backward_pre_hook(lambda m, go: (go[0] * 0.5,))
x = torch.tensor([[1.0, -1.0, 0.5]], requires_grad=True)
y = net(x)
act = {}
y.register_hook(lambda g: act.setdefault("y", g.clone()))
y.sum().backward()
print(y, x.grad, act["y"])
for e in log:
    print(e)
for h in (h1, h2, h3, h4):
    h.remove()
log.clear()
net.zero_grad()
net(x).sum().backward()
print(log, net[0].bias.grad)
w = torch.tensor([1.0, 2.0], requires_grad=True)
w.register_hook(lambda g: g * 10)
mid = w * 3
mid.retain_grad()
mid.register_hook(lambda g: print("mid grad", g))
(mid ** 2).sum().backward()
print(w.grad, mid.grad, mid.is_leaf, mid.retains_grad)
acc = []
p = nn.Parameter(torch.ones(2))
p.register_post_accumulate_grad_hook(lambda t: acc.append(t.grad.clone()))
(p * 3).sum().backward()
print(acc)
sd_log = []
m = nn.Linear(1, 1)
m.register_state_dict_pre_hook(lambda mod, prefix, keep_vars: sd_log.append(prefix))
m.state_dict(prefix="head.")
print(sd_log)
