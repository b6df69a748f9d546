import torch
import torch.nn as nn


class Normalizer(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.register_buffer("mean", torch.zeros(dim))
        self.register_buffer("count", torch.tensor(0))
        self.register_buffer("tmp", torch.ones(1), persistent=False)
        self.scale = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        if self.training:
            with torch.no_grad():
                self.count += 1
                self.mean += (x.mean(0) - self.mean) / self.count
        return (x - self.mean) * self.scale


m = Normalizer(3)
print(m)
print(list(m.state_dict().keys()), [n for n, _ in m.named_buffers()])
x = torch.arange(12.0).view(4, 3)
m(x)
m(x + 1)
print(m.mean, m.count, m.count.dtype)
m.eval()
print(m.training, m(x)[0])
acts = {}


def save_act(name):
    def hook(module, inp, out):
        acts[name] = out.detach()
    return hook


net = nn.Sequential(nn.Linear(3, 2), nn.ReLU(), nn.Linear(2, 1))
with torch.no_grad():
    for p in net.parameters():
        p.copy_(torch.linspace(-1, 1, p.numel()).view_as(p))
handles = [net[i].register_forward_hook(save_act(f"layer{i}")) for i in range(3)]
out = net(x)
print({k: v.shape for k, v in acts.items()}, acts["layer1"])
for h in handles:
    h.remove()
acts.clear()
net(x)
print(acts)
grads = []
net[0].weight.register_hook(lambda g: grads.append(g.clone()))
net(x).sum().backward()
print(grads[0], torch.equal(grads[0], net[0].weight.grad))
pre = net[2].register_forward_pre_hook(lambda mod, inp: (inp[0] * 0,))
print(net(x).flatten(), net[2].bias)
pre.remove()
