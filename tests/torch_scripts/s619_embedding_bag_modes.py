import torch
import torch.nn as nn

bag = nn.EmbeddingBag(10, 3, mode="mean")
with torch.no_grad():
    bag.weight.copy_(torch.arange(30.0).reshape(10, 3) / 10)
text = torch.tensor([1, 2, 4, 5, 4, 3, 2, 9])
offsets = torch.tensor([0, 4])
print(bag(text, offsets))
bag_sum = nn.EmbeddingBag.from_pretrained(bag.weight.detach().clone(), mode="sum", freeze=False)
out = bag_sum(text, offsets)
print(out)
out.sum().backward()
print(bag_sum.weight.grad[:, 0])
bag_max = nn.EmbeddingBag(10, 3, mode="max", _weight=bag.weight.detach().clone())
print(bag_max(torch.tensor([[1, 2], [4, 9]])))
w = torch.tensor([1.0, 0.5, 2.0, 0.0, 1.0, 1.0, 1.0, 1.0])
print(bag_sum(text, offsets, per_sample_weights=w))
print(nn.functional.embedding_bag(text, bag.weight, torch.tensor([0, 3, 8]), mode="sum", include_last_offset=True))
