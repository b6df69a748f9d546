import torch
import torch.nn as nn

class Norm(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.register_buffer("mean", torch.zeros(n))
        self.register_buffer("tmp", torch.ones(n), persistent=False)
        self.register_buffer("nothing", None)
        self.scale = nn.Parameter(torch.ones(n))
        self.count = 0
    def forward(self, x):
        if self.training:
            with torch.no_grad():
                self.mean.mul_(0.9).add_(0.1 * x.mean(0))
            self.count += 1
        return (x - self.mean) * self.scale * self.tmp

m = Norm(3)
print(list(m.state_dict()), [n for n, _ in m.named_buffers()])
x = torch.tensor([[1.0, 2.0, 3.0], [3.0, 2.0, 1.0]])
for _ in range(3):
    y = m(x)
print(m.mean.round(decimals=5), m.count, y.round(decimals=5))
m.eval()
print(m(x).round(decimals=5), m.count)
m2 = Norm(3)
m2.load_state_dict(m.state_dict())
print(m2.mean.round(decimals=5), m2.tmp)
m.half()
print(m.mean.dtype, m.scale.dtype, m.tmp.dtype)
m.to(torch.float64)
print(m.mean.dtype, m.scale.dtype)
m.to(dtype=torch.float32)
print(m.mean.dtype)
print(m.scale.grad, m.scale.is_leaf, type(m.scale).__name__)
nn.Module.register_buffer(m, "late", torch.arange(2))
print([n for n, _ in m.named_buffers()], m.late.dtype)
m.float()
print(m.late.dtype)
try:
    m.register_buffer("scale", torch.zeros(1))
except KeyError as e:
    print("KeyError", e)
m.mean = torch.ones(3)
print("mean" in dict(m.named_buffers()), m.state_dict()["mean"])
