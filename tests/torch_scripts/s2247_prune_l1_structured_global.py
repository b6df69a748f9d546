import torch
import torch.nn as nn
import torch.nn.utils.prune as prune

lin = nn.Linear(4, 3)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[0.1, -0.5, 0.3, 0.05], [1.0, -0.2, 0.0, 0.7], [-0.9, 0.4, 0.6, -0.01]]))
    lin.bias.copy_(torch.tensor([0.2, -0.3, 0.01]))
prune.l1_unstructured(lin, name="weight", amount=0.25)
print(sorted(n for n, _ in lin.named_parameters()), sorted(n for n, _ in lin.named_buffers()))
print(lin.weight_mask)
print(lin.weight)
print(prune.is_pruned(lin), lin(torch.ones(1, 4)).round(decimals=4))
prune.l1_unstructured(lin, name="weight", amount=2)
print(int((lin.weight_mask == 0).sum()))
prune.remove(lin, "weight")
print(sorted(n for n, _ in lin.named_parameters()), hasattr(lin, "weight_mask"))
conv = nn.Conv1d(2, 4, 2, bias=False)
with torch.no_grad():
    conv.weight.copy_(torch.arange(16.0).view(4, 2, 2) * torch.tensor([1.0, -0.1, 0.5, 0.01]).view(4, 1, 1))
prune.ln_structured(conv, "weight", amount=0.5, n=2, dim=0)
print(conv.weight_mask[:, 0, 0])
a, b = nn.Linear(2, 2, bias=False), nn.Linear(2, 2, bias=False)
with torch.no_grad():
    a.weight.copy_(torch.tensor([[0.1, 2.0], [0.3, -0.05]]))
    b.weight.copy_(torch.tensor([[1.5, -0.2], [0.01, 0.9]]))
prune.global_unstructured([(a, "weight"), (b, "weight")], pruning_method=prune.L1Unstructured, amount=3)
print(a.weight_mask, b.weight_mask)
x = torch.ones(1, 2, requires_grad=True)
b(a(x)).sum().backward()
print(a.weight_orig.grad, x.grad)
custom = nn.Linear(3, 1, bias=False)
prune.custom_from_mask(custom, "weight", torch.tensor([[1.0, 0.0, 1.0]]))
print(custom.weight_mask, custom.weight.detach().ne(0).sum().item())
