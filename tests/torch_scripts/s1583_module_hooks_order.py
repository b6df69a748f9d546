# module hooks: forward pre-hooks with kwargs, forward hooks with always_call, backward hooks
import torch
import torch.nn as nn

lin = nn.Linear(2, 2)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
    lin.bias.zero_()
log = []
h1 = lin.register_forward_pre_hook(lambda m, args: log.append(("pre", args[0].tolist())))
h2 = lin.register_forward_hook(lambda m, args, out: (log.append(("fwd", out.tolist())), out * 2)[1])
h3 = lin.register_full_backward_hook(
    lambda m, gin, gout: log.append(("bwd", [g.tolist() for g in gout], gin[0].tolist())))
h4 = lin.register_full_backward_pre_hook(lambda m, gout: log.append(("bwdpre", gout[0].tolist())))
x = torch.tensor([[1.0, -1.0]], requires_grad=True)
y = lin(x)
y.sum().backward()
for entry in log:
    print(entry)
print(x.grad)
for h in (h1, h2, h3, h4):
    h.remove()
log.clear()
h5 = lin.register_forward_pre_hook(lambda m, args, kwargs: (args, kwargs), with_kwargs=True)
h6 = lin.register_forward_hook(lambda m, args, kwargs, out: out + 100, with_kwargs=True)
print(lin(x))
h5.remove()
h6.remove()
print(lin(x), len(lin._forward_hooks), len(lin._forward_pre_hooks))
