# walking the graph: grad_fn names, next_functions structure, AccumulateGrad.variable, metadata, register_prehook on nodes
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
w = torch.tensor(3.0, requires_grad=True)
y = (x * w).sum() + x.mean()
def walk(fn, depth=0):
    if fn is None:
        return
    name = fn.name()
    extra = " var" + str(tuple(fn.variable.shape)) if hasattr(fn, "variable") else ""
    print("  " * depth + name + extra)
    for nxt, _ in fn.next_functions:
        walk(nxt, depth + 1)
walk(y.grad_fn)
print([n is None for n, _ in (x * 2).grad_fn.next_functions])
print((x * 2).grad_fn.next_functions[1])
seen = []
y.grad_fn.register_prehook(lambda gout: seen.append([g.tolist() for g in gout]))
y.grad_fn.register_hook(lambda gin, gout: seen.append(len(gin)))
y.backward()
print(seen, x.grad, w.grad)
z = x.exp()
print(z.grad_fn.name(), z.grad_fn.metadata, type(z.grad_fn._saved_result).__name__ if hasattr(z.grad_fn, "_saved_result") else None)
print(x.grad_fn, x.is_leaf, (x + 0).is_leaf, x.detach().grad_fn)
