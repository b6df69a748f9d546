# state_dict with keep_vars, buffers with persistent=False absent from it, and load errors listing keys
import torch
import torch.nn as nn

class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.tensor([1.0, 2.0]))
        self.register_buffer("avg", torch.tensor([0.5]))
        self.register_buffer("scratch", torch.zeros(1), persistent=False)

m = M()
sd = m.state_dict(keep_vars=True)
print(type(sd["w"]).__name__, sd["w"].requires_grad, list(sd))
print(m.state_dict()["w"].requires_grad)
try:
    m.load_state_dict({"w": torch.zeros(3), "avg": torch.zeros(1)})
except RuntimeError as e:
    print(e)
try:
    m.load_state_dict({"w": torch.zeros(2)})
except RuntimeError as e:
    print(e)
print(m.load_state_dict({"w": torch.zeros(2), "avg": torch.ones(1), "extra": torch.ones(1)}, strict=False))
print(m.w, m.avg)
