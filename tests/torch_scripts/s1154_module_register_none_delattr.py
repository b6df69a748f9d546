# register_parameter(None), register_buffer(None), delattr of params, non-persistent buffers in state_dict, extra_state
import torch
import torch.nn as nn

class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.ones(2))
        self.register_parameter("b", None)
        self.register_buffer("tmp", torch.zeros(1), persistent=False)
        self.register_buffer("stat", None)
        self.counter = 5

    def get_extra_state(self):
        return {"counter": self.counter}

    def set_extra_state(self, state):
        self.counter = state["counter"]

m = M()
print([n for n, _ in m.named_parameters()], [n for n, _ in m.named_buffers()], m.b, m.stat)
print(list(m.state_dict().keys()), m.state_dict()["_extra_state"])
m2 = M()
m2.counter = 0
m2.load_state_dict(m.state_dict())
print(m2.counter)
del m.w
print([n for n, _ in m.named_parameters()], hasattr(m, "w"))
m.stat = torch.ones(3)
print([n for n, _ in m.named_buffers()], "stat" in m.state_dict())
try:
    m.register_parameter("x", torch.ones(1))
except TypeError as e:
    print("TypeError:", e)
try:
    m.register_buffer("counter", torch.ones(1))
except KeyError as e:
    print("KeyError:", e)
