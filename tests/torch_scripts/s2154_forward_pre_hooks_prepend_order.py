import torch
import torch.nn as nn

log = []
lin = nn.Linear(2, 2)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
    lin.bias.zero_()

def scale_input(mod, args):
    log.append("scale")
    return (args[0] * 2,)
def shift_input(mod, args):
    log.append("shift")
    return args[0] + 1
def note(mod, args):
    log.append("note")

h1 = lin.register_forward_pre_hook(scale_input)
h2 = lin.register_forward_pre_hook(shift_input)
h3 = lin.register_forward_pre_hook(note, prepend=True)
x = torch.tensor([[1.0, 1.0]])
print(lin(x), log)
log.clear()
h1.remove()
print(lin(x), log)
log.clear()
def out_hook(mod, args, out):
    log.append("out")
    return out * 10
def out_first(mod, args, out):
    log.append("out_first")
h4 = lin.register_forward_hook(out_hook)
h5 = lin.register_forward_hook(out_first, prepend=True)
print(lin(x), log)
for h in (h2, h3, h4, h5):
    h.remove()
log.clear()
print(lin(x), log)
with h1:
    pass
def kw_pre(mod, args, kwargs):
    return args, {}
m = nn.Module()
m.forward = lambda a, scale=1.0: a * scale
print(len(lin._forward_pre_hooks), len(lin._forward_hooks))
