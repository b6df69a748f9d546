# forward pre-hooks that change inputs, forward hooks that change outputs, with_kwargs, prepend
import torch
import torch.nn as nn

lin = nn.Linear(2, 1)
with torch.no_grad():
    lin.weight.fill_(1.0)
    lin.bias.fill_(0.0)
order = []
lin.register_forward_pre_hook(lambda m, inp: (order.append("pre"), (inp[0] * 2,))[1])
lin.register_forward_pre_hook(lambda m, inp: order.append("pre0"), prepend=True)
lin.register_forward_hook(lambda m, inp, out: out + 100)
h = lin.register_forward_hook(lambda m, args, kwargs, out: (order.append(("kw", sorted(kwargs))), out)[1], with_kwargs=True)
print(lin(torch.tensor([[1.0, 2.0]])))
print(order)
h.remove()
print(lin(torch.tensor([[1.0, 1.0]])))
