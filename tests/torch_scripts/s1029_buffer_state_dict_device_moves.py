# buffers through state_dict/load_state_dict/to(): non-persistent buffers, buffer None, register_buffer replacing, _load_from_state_dict shape errors
import torch
import torch.nn as nn

class Counter(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("count", torch.tensor(0))
        self.register_buffer("mean", torch.zeros(2))
        self.register_buffer("cache", None)
        self.register_buffer("tmp", torch.ones(1), persistent=False)
    def forward(self, x):
        self.count += 1
        self.mean = 0.5 * self.mean + 0.5 * x.mean(0)
        return x - self.mean

m = Counter()
for k in range(3):
    m(torch.tensor([[1.0, 2.0], [3.0, float(k)]]))
print(m.count, m.mean, list(m.state_dict()), [n for n, _ in m.named_buffers()])
m2 = Counter()
print(m2.load_state_dict(m.state_dict()))
print(m2.count, m2.mean, m2.count.dtype)
m.double()
print(m.count.dtype, m.mean.dtype)
try:
    m2.load_state_dict({"count": torch.tensor(1), "mean": torch.zeros(3)})
except RuntimeError as e:
    print(str(e).splitlines()[0])
    print(str(e).splitlines()[1].strip())
m.cache = torch.ones(2)
print("cache" in m.state_dict(), type(m.cache).__name__)
try:
    m.register_buffer("mean", torch.zeros(1)) or print(m.mean)
    m.register_buffer("count.x", torch.zeros(1))
except KeyError as e:
    print(e)
try:
    m.register_buffer("w", [1, 2])
except TypeError as e:
    print(e)
