# torch.autograd.graph.saved_tensors_hooks: counting packs and unpacks, save_on_cpu as a no-op on CPU
import torch

packed = []
def pack(t):
    packed.append(tuple(t.shape))
    return t.clone()
def unpack(t):
    return t

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
    y = (x.exp() * x).sum()
print(len(packed) > 0, set(packed) <= {(3,), ()})
y.backward()
print(x.grad.round(decimals=4))
x.grad = None
with torch.autograd.graph.save_on_cpu(pin_memory=False):
    z = (x.sin() ** 2).sum()
z.backward()
print(x.grad.round(decimals=5))
with torch.autograd.graph.disable_saved_tensors_hooks("no hooks here"):
    try:
        with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
            pass
    except RuntimeError as e:
        print(e)
