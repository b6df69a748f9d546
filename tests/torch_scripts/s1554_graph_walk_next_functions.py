# walking the autograd graph: node names, next_functions, metadata, get_gradient_edge
import torch
from torch.autograd.graph import get_gradient_edge

x = torch.tensor([1.0, 2.0], requires_grad=True)
w = torch.tensor([[0.5, -1.0], [2.0, 0.0]], requires_grad=True)
h = torch.tanh(w @ x)
loss = (h * h).sum() + x.norm()


def walk(fn, depth=0, seen=None):
    seen = set() if seen is None else seen
    if fn is None or fn in seen:
        return
    seen.add(fn)
    print("  " * depth + fn.name())
    for nxt, i in fn.next_functions:
        walk(nxt, depth + 1, seen)


walk(loss.grad_fn)
print(loss.grad_fn.metadata, type(loss.grad_fn.metadata).__name__)
edge = get_gradient_edge(h)
print(edge.node.name(), edge.output_nr)
(gh,) = torch.autograd.grad(loss, edge, retain_graph=True)
print(gh)
acc = h.grad_fn.next_functions[0][0].next_functions
print([(type(f).__name__, i) for f, i in acc])
print(x.grad_fn, h.grad_fn._saved_result if hasattr(h.grad_fn, "_saved_result") else None)
