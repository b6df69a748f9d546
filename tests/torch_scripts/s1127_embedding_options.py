# Embedding padding_idx gradient, max_norm renorm in place, from_pretrained freeze, EmbeddingBag per_sample_weights
import torch
import torch.nn as nn

emb = nn.Embedding(5, 3, padding_idx=0)
with torch.no_grad():
    emb.weight.copy_(torch.arange(15.0).view(5, 3) / 10)
print(emb.weight[0])
out = emb(torch.tensor([[0, 2], [2, 4]]))
out.sum().backward()
print(emb.weight.grad)
mn = nn.Embedding(4, 2, max_norm=1.0)
with torch.no_grad():
    mn.weight.copy_(torch.tensor([[3.0, 4.0], [0.1, 0.2], [1.0, 1.0], [0.0, 2.0]]))
print(mn(torch.tensor([0, 2])), mn.weight)
pre = nn.Embedding.from_pretrained(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), freeze=True)
print(pre.weight.requires_grad, pre(torch.tensor([1, 1, 0])))
bag = nn.EmbeddingBag.from_pretrained(torch.arange(8.0).view(4, 2), mode="sum")
print(bag(torch.tensor([0, 1, 3, 2]), torch.tensor([0, 2]), per_sample_weights=torch.tensor([1.0, 0.5, 2.0, -1.0])))
print(nn.EmbeddingBag(4, 2, mode="max").weight.shape, nn.functional.embedding(torch.tensor([1]), torch.eye(3)))
