import torch
import torch.nn as nn

class RunningNorm(nn.Module):
    def __init__(self, d, momentum=0.1):
        super().__init__()
        self.momentum = momentum
        self.register_buffer("mean", torch.zeros(d))
        self.register_buffer("var", torch.ones(d))
        self.register_buffer("count", torch.tensor(0, dtype=torch.long))
        self.register_buffer("scratch", torch.zeros(d), persistent=False)

    def forward(self, x):
        if self.training:
            with torch.no_grad():
                self.mean.mul_(1 - self.momentum).add_(self.momentum * x.mean(0))
                self.var.mul_(1 - self.momentum).add_(self.momentum * x.var(0, unbiased=True))
                self.count += 1
        return (x - self.mean) / (self.var + 1e-5).sqrt()

m = RunningNorm(2)
for i in range(5):
    x = torch.tensor([[1.0, 2.0], [3.0, -2.0], [float(i), 0.0]])
    y = m(x)
print(m.mean.round(decimals=5), m.var.round(decimals=5), m.count)
print(list(m.state_dict().keys()))
print([n for n, _ in m.named_buffers()])
m.eval()
y = m(torch.tensor([[0.0, 0.0]]))
print(y.round(decimals=5), m.count.item())
m2 = RunningNorm(2)
m2.load_state_dict(m.state_dict())
print(torch.equal(m2.mean, m.mean), m2.count.dtype)
m.double()
print(m.count.dtype, m.mean.dtype)
m.float()
print(m.count.dtype, m.mean.dtype, m.scratch.dtype)
print(m.get_buffer("var").shape, dict(m.named_buffers(prefix="rn")).keys())
