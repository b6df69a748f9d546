# registering parameters and buffers: persistent flags, None entries, names, errors
import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("stats", torch.zeros(2))
        self.register_buffer("tmp", torch.ones(1), persistent=False)
        self.register_parameter("maybe", None)
        self.w = nn.Parameter(torch.ones(2))


m = M()
print(list(m.state_dict()), [n for n, _ in m.named_buffers()], [n for n, _ in m.named_parameters()])
print(m.maybe, m._non_persistent_buffers_set)
for bad in [("a.b", torch.zeros(1)), ("", torch.zeros(1)), ("w", torch.zeros(1))]:
    try:
        m.register_buffer(*bad)
    except (KeyError, TypeError) as e:
        print(type(e).__name__, e)
try:
    m.register_parameter("p", torch.zeros(1))
except TypeError as e:
    print(e)
try:
    m.stats = nn.Parameter(torch.zeros(2))
    print("assigned", type(m.stats).__name__, [n for n, _ in m.named_parameters()])
except (KeyError, TypeError) as e:
    print(type(e).__name__, e)
try:
    m.w = torch.zeros(2)
except TypeError as e:
    print(e)
m.w = None
print(m.w, [n for n, _ in m.named_parameters()])
print(m.get_buffer("tmp"), m.get_parameter("stats"))
