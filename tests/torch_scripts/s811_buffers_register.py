# Module buffers: register_buffer, persistent=False, buffers() and named_buffers(), to()
# converting buffers, a running-average buffer updated under no_grad, and buffer in state_dict
import torch
import torch.nn as nn


class RunningNorm(nn.Module):
    def __init__(self, n, momentum=0.5):
        super().__init__()
        self.momentum = momentum
        self.register_buffer("mean", torch.zeros(n))
        self.register_buffer("count", torch.tensor(0, dtype=torch.long))
        self.register_buffer("cache", None)
        self.register_buffer("tmp", torch.ones(1), persistent=False)

    def forward(self, x):
        if self.training:
            with torch.no_grad():
                self.mean.mul_(1 - self.momentum).add_(self.momentum * x.mean(0))
                self.count += 1
        return x - self.mean


m = RunningNorm(2)
for k in range(3):
    m(torch.tensor([[1.0, 2.0], [3.0, 4.0]]) * (k + 1))
print(m.mean, m.count, m.cache)
print([n for n, _ in m.named_buffers()], list(m.state_dict().keys()))
m.eval()
print(m(torch.ones(1, 2)))
m.float()
print(m.mean.dtype, m.count.dtype, m.tmp.dtype)
m.double()
print(m.mean.dtype, m.count.dtype)
m2 = RunningNorm(2)
m2.load_state_dict(m.state_dict())
print(m2.mean, m2.count)
try:
    m.register_buffer("mean", torch.zeros(1))
except KeyError as e:
    print("KeyError", e)
try:
    m.register_buffer("bad", [1, 2])
except TypeError as e:
    print("TypeError", e)
try:
    m.register_buffer("a.b", torch.zeros(1))
except KeyError as e:
    print("KeyError", e)
m.newbuf = torch.zeros(1)
print("newbuf" in dict(m.named_buffers()), m.newbuf)
