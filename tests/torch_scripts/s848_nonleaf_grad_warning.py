# The warning users see when reading .grad of a non-leaf, captured with warnings; retain_grad
# silences it; .grad on a leaf without backward is None
import warnings
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 3
z = y.sum()
z.backward()
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    print(y.grad)
print(len(caught), caught[0].category.__name__ if caught else None, str(caught[0].message)[:80] if caught else None)
y2 = x * 3
y2.retain_grad()
y2.sum().backward()
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    print(y2.grad, y2.retains_grad, x.retains_grad)
print(len(caught))
print(torch.ones(2, requires_grad=True).grad, torch.ones(2).grad)
p = torch.tensor(1.0, requires_grad=True)
try:
    p.retain_grad()
    print("leaf retain ok", p.retains_grad)
except RuntimeError as e:
    print(e)
try:
    torch.ones(1).retain_grad()
except RuntimeError as e:
    print(e)
