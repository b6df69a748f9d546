# Mistakes with modules: a missing attribute, calling a module with wrong args, forgetting
# super().__init__(), assigning a module before it, wrong load_state_dict key, get_submodule
import torch
import torch.nn as nn


def show(label, fn):
    try:
        r = fn()
        print(label, "ok", r)
    except Exception as e:
        print(label, type(e).__name__, str(e).splitlines()[0][:80])


lin = nn.Linear(2, 2)
show("missing attr", lambda: lin.weights)
show("forward args", lambda: lin(torch.ones(1, 2), torch.ones(1)))


class NoSuper(nn.Module):
    def __init__(self):
        self.fc = nn.Linear(1, 1)


show("no super", NoSuper)
seq = nn.Sequential(nn.Sequential(nn.Linear(1, 2)), nn.ReLU())
show("get_submodule", lambda: seq.get_submodule("0.0"))
show("get_submodule bad", lambda: seq.get_submodule("0.5"))
show("get_parameter", lambda: tuple(seq.get_parameter("0.0.bias").shape))
show("get_parameter bad", lambda: seq.get_parameter("0.0.gamma"))
show("get_buffer bad", lambda: seq.get_buffer("1.x"))
show("add_module dot", lambda: seq.add_module("a.b", nn.ReLU()))
show("add_module non-module", lambda: seq.add_module("x", 3))
show("register_parameter tensor", lambda: lin.register_parameter("p", torch.ones(1)))
show("register_module", lambda: type(lin.register_module("sub", nn.Tanh())).__name__ if lin.register_module("sub", nn.Tanh()) is None else "ret")


class Forgot(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.ones(1))


show("no forward", lambda: Forgot()(torch.ones(1)))
show("setattr none", lambda: setattr(lin, "bias", None) or lin.bias)
print([n for n, _ in lin.named_parameters()], lin)
