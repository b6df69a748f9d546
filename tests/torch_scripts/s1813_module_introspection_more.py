# nn.Module introspection: shared submodules, get_parameter/get_buffer, extra state, errors
import torch
import torch.nn as nn

shared = nn.Linear(2, 2)
net = nn.Sequential(shared, nn.ReLU(), shared)
print([n for n, _ in net.named_modules()])
print([n for n, _ in net.named_modules(remove_duplicate=False)])
print([n for n, _ in net.named_parameters()], len(list(net.parameters())))
print([n for n, _ in net.named_parameters(remove_duplicate=False)])
print([n for n, _ in net.named_children()])
print(net.get_parameter("0.weight").shape, net.get_submodule("1"))
try:
    net.get_parameter("0.nothing")
except AttributeError as e:
    print("AttributeError", e)
try:
    net.get_submodule("5")
except AttributeError as e:
    print("AttributeError", e)


class WithState(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("running", torch.zeros(2))
        self.register_buffer("scratch", torch.ones(1), persistent=False)
        self.counter = 3

    def get_extra_state(self):
        return {"counter": self.counter}

    def set_extra_state(self, state):
        self.counter = state["counter"]


m = WithState()
print(sorted(m.state_dict()), m.get_buffer("scratch"))
sd = m.state_dict()
sd["_extra_state"] = {"counter": 9}
m.load_state_dict(sd)
print(m.counter, [n for n, _ in m.named_buffers()])
for bad in [lambda: m.register_buffer("a.b", torch.ones(1)),
            lambda: m.register_buffer("", torch.ones(1)),
            lambda: m.register_buffer("counter", torch.ones(1)),
            lambda: m.register_parameter("w", torch.ones(1)),
            lambda: m.add_module("x.y", nn.ReLU()),
            lambda: m.add_module("z", "notamodule"),
            lambda: m.register_buffer("b", [1, 2])]:
    try:
        bad()
        print("no error")
    except (KeyError, TypeError) as e:
        print(type(e).__name__, e)
net.eval()
print([mod.training for mod in net.modules()])
net.train()
net.requires_grad_(False)
print([p.requires_grad for p in net.parameters()])
del net[1]
print(net, len(net))
print(nn.Sequential(nn.ReLU(), nn.Tanh())[::-1])
print(nn.ModuleList([nn.ReLU(), nn.Tanh()])[-1], nn.ModuleList([nn.ReLU()]) + nn.ModuleList([nn.Tanh()]))
