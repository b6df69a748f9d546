import torch
import torch.nn as nn

log = []


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(3, 3)
        self.register_buffer("scale", torch.tensor(2.0))
        self.register_buffer("tmp", torch.zeros(1), persistent=False)

    def forward(self, x):
        return self.lin(x) * self.scale


net = nn.Sequential(Block(), nn.Tanh(), Block())
for i, p in enumerate(net.parameters()):
    nn.init.constant_(p, 0.1 * (i + 1))


def pre(mod, args):
    log.append(("pre", type(mod).__name__, args[0].shape))
    return (args[0] * 0.5,)


def post(mod, args, out):
    log.append(("post", type(mod).__name__, round(out.sum().item(), 5)))


def bwd(mod, gin, gout):
    log.append(("bwd", type(mod).__name__, len(gin), gout[0].shape))


h1 = net[0].register_forward_pre_hook(pre)
h2 = net[0].register_forward_hook(post)
h3 = net[2].lin.register_full_backward_hook(bwd)
h4 = net[2].register_full_backward_pre_hook(lambda m, go: log.append(("bpre", go[0].shape)))
x = torch.ones(2, 3, requires_grad=True)
net(x).sum().backward()
for entry in log:
    print(entry)
print(x.grad)
for h in (h1, h2, h3, h4):
    h.remove()
log.clear()
net(x)
print(log)
print(list(net.state_dict().keys()))
print([n for n, _ in net.named_buffers()])
print([n for n, m in net.named_modules()])
print(round(net[0].lin.weight.grad.sum().item(), 8))
net.apply(lambda m: m.register_buffer("flag", torch.tensor(True)) if isinstance(m, Block) else None)
print(sorted(net[2].state_dict().keys()))
sd = net.state_dict()
net2 = nn.Sequential(Block(), nn.Tanh(), Block())
missing = net2.load_state_dict(sd, strict=False)
print(missing)
print(torch.equal(net2[2].lin.bias, net[2].lin.bias))
try:
    net2.load_state_dict({"0.lin.weight": torch.zeros(2, 2)}, strict=False)
except RuntimeError as e:
    print(str(e).splitlines()[0])
    print(str(e).splitlines()[1].strip())
