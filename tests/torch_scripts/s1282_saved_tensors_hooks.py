# saved_tensors_hooks pack/unpack counting and transforming saved tensors
import torch

packed = []
def pack(t):
    packed.append(tuple(t.shape))
    return t * 1

def unpack(t):
    return t

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
    y = (x.exp() * x).sum()
print(len(packed) > 0, all(s == (3,) for s in packed))
y.backward()
print(x.grad)
with torch.autograd.graph.save_on_cpu():
    z = (x * x).sum()
x.grad = None
z.backward()
print(x.grad)
