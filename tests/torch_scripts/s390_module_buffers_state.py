import io
import torch
import torch.nn as nn


class RunningNorm(nn.Module):
    def __init__(self, n, momentum=0.1):
        super().__init__()
        self.momentum = momentum
        self.register_buffer("mean", torch.zeros(n))
        self.register_buffer("var", torch.ones(n))
        self.register_buffer("count", torch.tensor(0, dtype=torch.long))
        self.register_buffer("scratch", torch.zeros(n), persistent=False)
        self.gain = nn.Parameter(torch.ones(n))

    def forward(self, x):
        if self.training:
            m, v = x.mean(0), x.var(0, unbiased=False)
            with torch.no_grad():
                self.mean.mul_(1 - self.momentum).add_(self.momentum * m)
                self.var.mul_(1 - self.momentum).add_(self.momentum * v)
                self.count += 1
        else:
            m, v = self.mean, self.var
        return self.gain * (x - m) / (v + 1e-5).sqrt()


net = RunningNorm(3)
x = torch.arange(12.0).view(4, 3)
for _ in range(3):
    net(x)
print(net.mean, net.var, net.count)
sd = net.state_dict()
print(list(sd.keys()), sd["count"].dtype)
buf = io.BytesIO()
torch.save(sd, buf)
buf.seek(0)
net2 = RunningNorm(3)
res = net2.load_state_dict(torch.load(buf))
print(res, net2.count, torch.equal(net2.var, net.var))
net2.eval()
print(net2(x).round(decimals=4))
print([n for n, _ in net2.named_buffers()], [n for n, _ in net2.named_parameters()])
bad = {k: v for k, v in sd.items() if k != "var"}
r = net2.load_state_dict(bad, strict=False)
print(r.missing_keys, r.unexpected_keys)
try:
    net2.load_state_dict(bad)
except RuntimeError as e:
    print("RuntimeError", str(e).splitlines()[0])
