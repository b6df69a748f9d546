# .grad of a non-leaf warns and is None; retain_grad keeps it; hooks on intermediates
import warnings
import torch

x = torch.tensor([1.0, -1.0], requires_grad=True)
h = x * 3
o = (h ** 2).sum()
o.backward(retain_graph=True)
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    print(h.grad)
    print(len(w) > 0, "retain_grad" in str(w[0].message))
h.retain_grad()
seen = []
h.register_hook(lambda g: seen.append(g.clone()))
o.backward()
print(h.grad, seen, x.grad, h.retains_grad, x.retains_grad)
