# forward pre-hooks with kwargs that rewrite inputs, forward hooks replacing outputs, hook ordering with prepend, always_call
import torch
import torch.nn as nn

class Affine(nn.Module):
    def forward(self, x, scale=1.0, shift=0.0):
        return x * scale + shift

m = Affine()
m.register_forward_pre_hook(lambda mod, args, kwargs: (args, {**kwargs, "scale": 10.0}), with_kwargs=True)
m.register_forward_hook(lambda mod, args, out: out + 1)
m.register_forward_hook(lambda mod, args, out: print("first, sees", out.tolist()), prepend=True)
m.register_forward_hook(lambda mod, args, kwargs, out: print("kwargs", sorted(kwargs)), with_kwargs=True)
print(m(torch.tensor([1.0, 2.0]), shift=0.5))
class Boom(nn.Module):
    def forward(self, x):
        raise ValueError("boom")
b = Boom()
b.register_forward_hook(lambda mod, args, out: print("always called, out is", out), always_call=True)
try:
    b(torch.ones(1))
except ValueError as e:
    print(e)
h = m.register_forward_pre_hook(lambda mod, args: (args[0] * 0,))
print(m(torch.tensor([3.0])))
h.remove()
print(m(torch.tensor([3.0])))
