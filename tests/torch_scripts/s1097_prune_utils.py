# torch.nn.utils.prune: l1_unstructured, ln_structured, remove, global_unstructured, masks and buffers
import torch
import torch.nn as nn
import torch.nn.utils.prune as prune

lin = nn.Linear(4, 3)
with torch.no_grad():
    lin.weight.copy_(torch.arange(12.0).view(3, 4) - 5.5)
    lin.bias.copy_(torch.tensor([0.1, -0.2, 0.3]))
prune.l1_unstructured(lin, name="weight", amount=0.25)
print([n for n, _ in lin.named_parameters()], [n for n, _ in lin.named_buffers()])
print(lin.weight_mask)
print(lin.weight)
print(prune.is_pruned(lin))
prune.ln_structured(lin, name="weight", amount=1, n=2, dim=0)
print(lin.weight_mask)
prune.remove(lin, "weight")
print([n for n, _ in lin.named_parameters()], lin.weight)
a, b = nn.Linear(2, 2), nn.Linear(2, 2)
with torch.no_grad():
    a.weight.copy_(torch.tensor([[1.0, -2.0], [3.0, 0.5]]))
    b.weight.copy_(torch.tensor([[0.1, 4.0], [-0.2, 1.5]]))
prune.global_unstructured([(a, "weight"), (b, "weight")], pruning_method=prune.L1Unstructured, amount=3)
print(a.weight_mask, b.weight_mask)
x = torch.ones(1, 2, requires_grad=True)
b(a(x)).sum().backward()
print(a.weight_orig.grad)
