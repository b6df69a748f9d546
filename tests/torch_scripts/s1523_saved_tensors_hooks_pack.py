# saved_tensors_hooks: what autograd saves, packed and unpacked by the user's functions
import torch
from torch.autograd.graph import saved_tensors_hooks, save_on_cpu

packed = []


def pack(t):
    packed.append(tuple(t.shape))
    return t.clone() * 1


def unpack(t):
    return t


x = torch.tensor([0.5, 1.0, 2.0], requires_grad=True)
with saved_tensors_hooks(pack, unpack):
    y = (x * x).sin().sum()
print(packed)
y.backward()
print(x.grad)
calls = []
with saved_tensors_hooks(lambda t: (calls.append("p"), t)[1],
                         lambda t: (calls.append("u"), t * 2)[1]):
    z = x.exp()
z.sum().backward()
print(calls, x.grad)
with save_on_cpu(pin_memory=False):
    w = (x ** 3).sum()
x.grad = None
w.backward()
print(x.grad)
with torch.autograd.graph.disable_saved_tensors_hooks("no hooks here"):
    try:
        with saved_tensors_hooks(pack, unpack):
            pass
    except RuntimeError as e:
        print(e)
