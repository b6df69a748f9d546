# EmbeddingBag: sum/mean/max with offsets, per_sample_weights, padding_idx, gradients
import torch
import torch.nn as nn
import torch.nn.functional as F

w = torch.arange(10.0).reshape(5, 2).requires_grad_()
inp = torch.tensor([0, 2, 4, 1, 3])
offsets = torch.tensor([0, 2])
for mode in ["sum", "mean", "max"]:
    out = F.embedding_bag(inp, w, offsets, mode=mode)
    (g,) = torch.autograd.grad(out.sum(), w)
    print(mode, out.detach(), g.flatten())
psw = torch.tensor([1.0, 0.5, 2.0, 1.0, -1.0])
print(F.embedding_bag(inp, w, offsets, mode="sum", per_sample_weights=psw))
bag = nn.EmbeddingBag(5, 2, mode="mean", padding_idx=2)
with torch.no_grad():
    bag.weight.copy_(w)
print(bag(torch.tensor([[0, 2], [2, 2]])), bag)
print(F.embedding_bag(inp, w, torch.tensor([0, 2, 5]), include_last_offset=True, mode="sum"))
