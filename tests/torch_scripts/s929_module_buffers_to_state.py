# buffers follow .to(dtype), are saved with save/load, and get_buffer / get_parameter lookups
import io
import torch
import torch.nn as nn

class Counter(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("steps", torch.tensor(0))
        self.register_buffer("running", torch.zeros(2))
        self.register_buffer("tmp", torch.zeros(2), persistent=False)
        self.lin = nn.Linear(2, 2)

    def forward(self, x):
        self.steps += 1
        self.running.mul_(0.5).add_(x.mean(0) * 0.5)
        return self.lin(x)

m = Counter()
x = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
m(x); m(x)
print(m.steps, m.running, m.get_buffer("running") is m.running)
print(m.get_parameter("lin.bias").shape)
m.to(torch.float32)
print(m.steps.dtype, m.running.dtype, m.tmp.dtype, m.lin.weight.dtype)
buf = io.BytesIO()
torch.save(m.state_dict(), buf)
buf.seek(0)
sd = torch.load(buf)
print(sorted(sd), sd["steps"], sd["running"].dtype)
try:
    m.get_buffer("lin.weight")
except AttributeError as e:
    print(e)
try:
    m.register_buffer("lin", torch.zeros(1))
except KeyError as e:
    print(e)
