import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 3), nn.Tanh(), nn.Linear(3, 2))

def scale_input(module, args):
    print("pre-hook", type(module).__name__, len(args), tuple(args[0].shape))
    return (args[0] * 2,)

def with_kwargs(module, args, kwargs):
    print("pre-hook kwargs", sorted(kwargs))
    return args, kwargs

def replace_output(module, inp, out):
    return out + 1

h1 = model[0].register_forward_pre_hook(scale_input)
h2 = model[2].register_forward_hook(replace_output)
x = torch.ones(5, 4)
y = model(x)
h1.remove()
y2 = model(x)
print(y.shape, torch.allclose(y, y2))
h2.remove()
y3 = model(x)
print(torch.allclose(y2 - 1, y3))

class Scaler(nn.Module):
    def forward(self, x, scale=1.0):
        return x * scale

s = Scaler()
hk = s.register_forward_pre_hook(with_kwargs, with_kwargs=True)
print(s(torch.ones(2), scale=3.0))
hk.remove()

def fwd_kw(module, args, kwargs, output):
    print("fwd kw", kwargs.get("scale"), output.tolist())
    return output * 10
hk2 = s.register_forward_hook(fwd_kw, with_kwargs=True)
print(s(torch.ones(2), scale=2.0))
hk2.remove()

grads = {}
def bhook(module, grad_input, grad_output):
    grads[type(module).__name__] = (tuple(g.shape if g is not None else None for g in grad_input),
                                    tuple(g.shape for g in grad_output))
def bpre(module, grad_output):
    print("backward pre", len(grad_output), tuple(grad_output[0].shape))
    return (grad_output[0] * 0.5,)

lin = nn.Linear(3, 2)
hb = lin.register_full_backward_hook(bhook)
hp = lin.register_full_backward_pre_hook(bpre)
inp = torch.randn(4, 3, requires_grad=True)
lin(inp).sum().backward()
print(grads)
print(torch.allclose(inp.grad, 0.5 * lin.weight.sum(0).expand(4, 3)))
hb.remove(); hp.remove()

class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2, 2)
    def forward(self, x):
        return self.fc(x).relu()

b = Block()
names = []
for n, m in b.named_modules():
    m.register_forward_hook(lambda mod, i, o, n=n: names.append(n or "<root>"))
b(torch.zeros(1, 2))
print(names)
print(len(b._forward_hooks), len(b.fc._forward_hooks))
