# magnitude pruning: masks, forward pre-hooks, remove and global pruning
import torch
import torch.nn as nn
import torch.nn.utils.prune as prune

lin = nn.Linear(4, 3)
with torch.no_grad():
    lin.weight.copy_(torch.arange(12.0).reshape(3, 4) - 5.5)
    lin.bias.copy_(torch.tensor([0.1, -0.2, 0.3]))
prune.l1_unstructured(lin, "weight", amount=0.5)
print(sorted(n for n, _ in lin.named_parameters()))
print(sorted(n for n, _ in lin.named_buffers()))
print(lin.weight_mask)
print(lin.weight)
print(prune.is_pruned(lin), len(lin._forward_pre_hooks))
out = lin(torch.ones(2, 4))
out.sum().backward()
print(lin.weight_orig.grad)
prune.remove(lin, "weight")
print(sorted(n for n, _ in lin.named_parameters()), prune.is_pruned(lin))
print(lin.weight)
a, b = nn.Linear(3, 2), nn.Linear(2, 2)
with torch.no_grad():
    a.weight.copy_(torch.tensor([[0.1, -2.0, 0.3], [1.5, 0.05, -0.7]]))
    b.weight.copy_(torch.tensor([[0.2, -0.01], [3.0, 0.4]]))
prune.global_unstructured([(a, "weight"), (b, "weight")],
                          pruning_method=prune.L1Unstructured, amount=4)
print(a.weight_mask, b.weight_mask)
prune.ln_structured(b, "weight", amount=1, n=2, dim=0)
print(b.weight_mask, b.weight)
