# Forward pre-hooks with_kwargs, prepend=True ordering, always_call, hook handles removal
import torch
import torch.nn as nn

class Scaler(nn.Module):
    def forward(self, x, scale=1.0):
        return x * scale

m = Scaler()
log = []
h1 = m.register_forward_pre_hook(lambda mod, args, kwargs: (log.append(("pre1", kwargs)), (args, {"scale": 3.0}))[1], with_kwargs=True)
h2 = m.register_forward_pre_hook(lambda mod, args: log.append("pre0"), prepend=True)
h3 = m.register_forward_hook(lambda mod, args, kwargs, out: out + kwargs["scale"], with_kwargs=True)
h4 = m.register_forward_hook(lambda mod, inp, out: log.append(("fwd-first", out.tolist())), prepend=True)
print(m(torch.tensor([1.0, 2.0]), scale=2.0))
print(log)
for h in (h1, h2, h3, h4):
    h.remove()
print(m(torch.tensor([1.0, 2.0]), scale=2.0), len(m._forward_hooks), len(m._forward_pre_hooks))
