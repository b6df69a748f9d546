import torch
import torch.nn as nn
import torch.nn.utils.prune as prune

a = nn.Linear(3, 4)
b = nn.Linear(4, 2)
with torch.no_grad():
    a.weight.copy_(torch.arange(12.0).reshape(4, 3) - 5.5)
    b.weight.copy_(torch.arange(8.0).reshape(2, 4) / 3 - 1)
prune.ln_structured(a, name="weight", amount=0.5, n=2, dim=0)
print(a.weight_mask)
prune.global_unstructured([(a, "bias"), (b, "weight")], pruning_method=prune.L1Unstructured, amount=3)
print(b.weight_mask)
print(int((b.weight == 0).sum()))
prune.random_unstructured(b, name="bias", amount=0.0)
print(b.bias_mask)
print(sum(int(m.sum()) for n, m in b.named_buffers()))
