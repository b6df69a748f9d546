# EmbeddingBag sum/mean/max with offsets and per_sample_weights; gradients
import torch
import torch.nn as nn

bag = nn.EmbeddingBag(5, 2, mode="sum")
with torch.no_grad():
    bag.weight.copy_(torch.arange(10.0).reshape(5, 2))
inp = torch.tensor([0, 2, 4, 1, 1])
off = torch.tensor([0, 2])
print(bag(inp, off))
print(bag(inp, off, per_sample_weights=torch.tensor([1.0, 0.5, 2.0, 1.0, -1.0])))
for mode in ["mean", "max"]:
    b = nn.EmbeddingBag(5, 2, mode=mode)
    with torch.no_grad():
        b.weight.copy_(torch.arange(10.0).reshape(5, 2))
    out = b(torch.tensor([[0, 2], [4, 4]]))
    out.sum().backward()
    print(mode, out, b.weight.grad)
