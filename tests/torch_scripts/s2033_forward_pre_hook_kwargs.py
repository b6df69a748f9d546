import torch
import torch.nn as nn

class Scaler(nn.Module):
    def forward(self, x, scale=1.0, shift=None):
        y = x * scale
        if shift is not None:
            y = y + shift
        return y

m = Scaler()

def pre(module, args, kwargs):
    print("pre args", len(args), sorted(kwargs))
    kwargs = dict(kwargs)
    kwargs["scale"] = kwargs.get("scale", 1.0) * 2
    return args, kwargs

def post(module, args, kwargs, output):
    print("post kwargs", sorted(kwargs))
    return output + 100

h1 = m.register_forward_pre_hook(pre, with_kwargs=True)
h2 = m.register_forward_hook(post, with_kwargs=True)
x = torch.tensor([1.0, 2.0])
print(m(x, scale=3.0))
print(m(x, shift=torch.tensor(0.5)))
h1.remove(); h2.remove()
print(m(x, scale=3.0))

def plain_pre(module, args):
    return (args[0] * 0,)
h = m.register_forward_pre_hook(plain_pre)
print(m(x, scale=5.0))
h.remove()

calls = []
m.register_forward_hook(lambda mod, a, o: calls.append("first"))
m.register_forward_hook(lambda mod, a, o: calls.append("prepended"), prepend=True)
m(x)
print(calls)

always = []
class Boom(nn.Module):
    def forward(self, x):
        raise ValueError("boom")
b = Boom()
b.register_forward_hook(lambda mod, a, o: always.append("always"), always_call=True)
try:
    b(x)
except ValueError as e:
    print("ValueError", e)
print(always)
