# Forward hooks with with_kwargs=True, prepend=True ordering, always_call; forward pre-hook
# that changes kwargs; a module whose forward takes keyword arguments
import torch
import torch.nn as nn


class Scale(nn.Module):
    def forward(self, x, factor=1.0):
        return x * factor


m = Scale()
order = []
m.register_forward_hook(lambda mod, a, o: order.append("h1"))
m.register_forward_hook(lambda mod, a, o: order.append("h0"), prepend=True)


def pre(mod, args, kwargs):
    order.append(("pre", sorted(kwargs)))
    kwargs = dict(kwargs)
    kwargs["factor"] = kwargs.get("factor", 1.0) * 10
    return args, kwargs


m.register_forward_pre_hook(pre, with_kwargs=True)


def post(mod, args, kwargs, out):
    order.append(("post", kwargs.get("factor")))
    return out + 1


m.register_forward_hook(post, with_kwargs=True)
print(m(torch.tensor([1.0, 2.0]), factor=2.0), order)
order.clear()
print(m(torch.tensor([1.0])), order)
