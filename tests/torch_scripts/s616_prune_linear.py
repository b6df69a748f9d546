import torch
import torch.nn as nn
import torch.nn.utils.prune as prune

lin = nn.Linear(4, 3)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[0.1, -0.5, 0.3, 0.05], [0.9, -0.02, 0.4, -0.7], [0.2, 0.25, -0.6, 0.01]]))
    lin.bias.fill_(0.1)
prune.l1_unstructured(lin, name="weight", amount=0.5)
print([n for n, _ in lin.named_parameters()])
print([n for n, _ in lin.named_buffers()])
print(lin.weight_mask)
print(lin.weight)
x = torch.ones(2, 4)
out = lin(x).sum()
out.backward()
print(lin.weight_orig.grad)
print(prune.is_pruned(lin))
prune.remove(lin, "weight")
print([n for n, _ in lin.named_parameters()], prune.is_pruned(lin))
print(lin.weight)
