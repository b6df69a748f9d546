# Walking the graph: grad_fn.next_functions recursively, AccumulateGrad variables, names of
# nodes for a small network, metadata dict on a node, is_leaf / requires_grad of intermediates
import torch

w = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
b = torch.tensor([0.5, -0.5], requires_grad=True)
x = torch.tensor([1.0, -1.0])
h = torch.tanh(w @ x + b)
loss = (h ** 2).mean()


def walk(fn, depth=0):
    if fn is None:
        return
    extra = ""
    if hasattr(fn, "variable"):
        extra = f" var{tuple(fn.variable.shape)}"
    print("  " * depth + fn.name() + extra)
    for nxt, _ in fn.next_functions:
        walk(nxt, depth + 1)


walk(loss.grad_fn)
print(h.is_leaf, h.requires_grad, w.is_leaf, (w * 2).is_leaf, w.detach().is_leaf)
loss.grad_fn.metadata["tag"] = "loss"
print(loss.grad_fn.metadata, type(loss.grad_fn.next_functions), len(loss.grad_fn.next_functions))
acc = h.grad_fn.next_functions[0][0].next_functions[1][0]
print(acc.name(), acc.variable is b)
print([type(t[1]).__name__ for t in loss.grad_fn.next_functions])
