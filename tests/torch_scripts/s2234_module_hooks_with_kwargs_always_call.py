import torch
import torch.nn as nn


class Scale(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.tensor([1.0, 2.0]))

    def forward(self, x, shift=0.0):
        return x * self.w + shift


m = Scale()
calls = []


def pre(mod, args, kwargs):
    calls.append(("pre", sorted(kwargs)))
    return args, {**kwargs, "shift": kwargs.get("shift", 0.0) + 1.0}


def post(mod, args, kwargs, out):
    calls.append(("post", kwargs["shift"]))
    return out * 2


hp = m.register_forward_pre_hook(pre, with_kwargs=True)
hf = m.register_forward_hook(post, with_kwargs=True)
print(m(torch.ones(2), shift=0.5), calls)
hp.remove()
hf.remove()
print(m(torch.ones(2)))


def only_args(mod, args):
    return (args[0] + 100,)


h = m.register_forward_pre_hook(only_args)
print(m(torch.ones(2)))
h.remove()


class Boom(nn.Module):
    def forward(self, x):
        raise ValueError("boom")


b = Boom()
seen = []
b.register_forward_hook(lambda mod, a, o: seen.append("always"), always_call=True)
b.register_forward_hook(lambda mod, a, o: seen.append("normal"))
try:
    b(torch.ones(1))
except ValueError as e:
    print("ValueError:", e, seen)
grads = []
m.register_full_backward_pre_hook(lambda mod, go: grads.append(("pre", go[0].tolist())))
m.register_full_backward_hook(lambda mod, gi, go: grads.append(("full", gi[0].tolist())))
x = torch.tensor([3.0, 4.0], requires_grad=True)
m(x).sum().backward()
print(grads, x.grad, m.w.grad)
print(len(m._forward_pre_hooks), len(m._forward_hooks), len(m._backward_hooks))
