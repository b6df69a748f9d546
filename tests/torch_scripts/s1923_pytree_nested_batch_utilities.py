# Nested-batch helpers as a research codebase writes them with torch.utils._pytree: a
# dataset returning dicts of tensors and metadata, tree_map_only to cast/detach tensors,
# tree_leaves to count them, tree_map over (params, grads) pairs for a manual SGD step
import torch
import torch.nn as nn
from torch.utils._pytree import tree_flatten, tree_leaves, tree_map, tree_map_only, tree_unflatten

batch = {
    "inputs": {"image": torch.arange(12, dtype=torch.float32).view(1, 3, 4),
               "mask": torch.tensor([True, False, True])},
    "targets": (torch.tensor([2]), torch.tensor([0.5])),
    "meta": {"ids": ["a7"], "epoch": 3},
}
as64 = tree_map_only(torch.Tensor, lambda t: t.double() if t.is_floating_point() else t, batch)
print(as64["inputs"]["image"].dtype, as64["inputs"]["mask"].dtype, as64["targets"][1].dtype)
print(len(tree_leaves(batch)), sum(isinstance(v, torch.Tensor) for v in tree_leaves(batch)))
shapes = tree_map_only(torch.Tensor, lambda t: tuple(t.shape), batch)
print(shapes)
leaves, spec = tree_flatten(batch)
print(spec.num_leaves, type(tree_unflatten(leaves, spec)["targets"]).__name__)

model = nn.Sequential(nn.Linear(4, 3), nn.Tanh(), nn.Linear(3, 1))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.linspace(-1, 1, p.numel()).view_as(p) * (0.5 + 0.1 * i))
params = dict(model.named_parameters())
x = as64["inputs"]["image"].view(3, 4) / 10
for step in range(3):
    out = torch.func.functional_call(model, params, (x,))
    loss = out.pow(2).mean()
    grads = dict(zip(params, torch.autograd.grad(loss, list(params.values()))))
    params = tree_map(lambda p, g: (p - 0.5 * g).detach().requires_grad_(), params, grads)
    print(step, f"{loss.item():.6f}", sorted(params)[:2])
norms = tree_map(lambda g: round(g.norm().item(), 6), grads)
print(norms)
