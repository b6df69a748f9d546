# autograd.graph: saved_tensors_hooks, disable_saved_tensors_hooks, node names and edges
import torch
from torch.autograd.graph import disable_saved_tensors_hooks, saved_tensors_hooks

packed = []


def pack(t):
    packed.append(tuple(t.shape))
    return t.clone()


def unpack(t):
    return t


x = torch.tensor([1.0, 2.0], requires_grad=True)
with saved_tensors_hooks(pack, unpack):
    y = (x * x).sin()
y.sum().backward()
print(sorted(packed), x.grad)
with disable_saved_tensors_hooks("no hooks here"):
    try:
        with saved_tensors_hooks(pack, unpack):
            pass
    except RuntimeError as e:
        print("RuntimeError", e)
z = (x.exp() * 2).sum()
print(z.grad_fn.name(), [type(n).__name__ for n, _ in z.grad_fn.next_functions])
node = z.grad_fn.next_functions[0][0]
print(node.name(), node.next_functions[0][0].name(), node.next_functions[1])
print(type(x.exp().grad_fn._saved_result).__name__ if hasattr(x.exp().grad_fn, "_saved_result") else "n/a")
m = x.mul(3.0)
print(m.grad_fn._saved_other if hasattr(m.grad_fn, "_saved_other") else None)
seen = []
hs = torch.autograd.graph.register_multi_grad_hook((x,), lambda grads: seen.append(len(grads)))
(x * 2).sum().backward()
print(seen)
hs.remove()
print(torch.autograd.graph.Node.__name__, isinstance(z.grad_fn, torch.autograd.graph.Node))
with torch.autograd.graph.save_on_cpu():
    w = (x * x).sum()
w.backward()
print(x.grad)
