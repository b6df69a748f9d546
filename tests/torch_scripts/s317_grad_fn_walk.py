import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
w = torch.tensor([[0.5, -1.0, 2.0]], requires_grad=True)
y = (w @ x.unsqueeze(1)).squeeze().relu() * x.mean() + x.pow(2).sum().sqrt()


def walk(fn, depth=0, seen=None):
    seen = set() if seen is None else seen
    if fn is None or fn in seen:
        return
    seen.add(fn)
    print("  " * depth + type(fn).__name__)
    for nxt, idx in fn.next_functions:
        walk(nxt, depth + 1, seen)


walk(y.grad_fn)
print(y.grad_fn.name(), y.is_leaf, x.is_leaf, y.requires_grad)
acc = y.grad_fn.next_functions[0][0]
print(type(acc).__name__)
leaf_node = x.pow(2).grad_fn.next_functions[0][0]
print(type(leaf_node).__name__, leaf_node.variable is x)
z = x * 2.5
print(z.grad_fn._saved_other if hasattr(z.grad_fn, "_saved_other") else "n/a")
print(x.exp().grad_fn._saved_result)
print(type(x.sum().grad_fn).__name__, type(x.sum(0).grad_fn).__name__, type(x.mean().grad_fn).__name__)
print(type(x.view(3, 1).grad_fn).__name__, type(x[1:].grad_fn).__name__, type(x[1].grad_fn).__name__)
print(type(x.t().grad_fn).__name__, type(x.expand(2, 3).grad_fn).__name__, type(x.clone().grad_fn).__name__)
print(type((x + 1).grad_fn).__name__, type((x - x).grad_fn).__name__, type((x / 2).grad_fn).__name__)
print(type(torch.cat([x, x]).grad_fn).__name__, type(torch.stack([x, x]).grad_fn).__name__)
print(type(x.unsqueeze(0).grad_fn).__name__, type(x.reshape(3, 1).grad_fn).__name__, type(x.flip(0).grad_fn).__name__)
print(type(x.abs().grad_fn).__name__, type(x.max().grad_fn).__name__, type(x.max(0).values.grad_fn).__name__)
print(type(x.to(torch.float32).grad_fn).__name__, type(x.norm().grad_fn).__name__, type(x.std().grad_fn).__name__)
print(type(torch.where(x > 1, x, 0.0).grad_fn).__name__, type(x.clamp(0, 2).grad_fn).__name__)
print(type(x.softmax(0).grad_fn).__name__, type(x.log_softmax(0).grad_fn).__name__, type(x.cumsum(0).grad_fn).__name__)
print(y.grad_fn.metadata, dict(y.grad_fn.metadata))
y.backward()
print(x.grad, w.grad)
