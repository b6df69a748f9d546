# Embedding with padding_idx (no gradient there), from_pretrained freeze, sparse=False grads
import torch
import torch.nn as nn

emb = nn.Embedding(4, 2, padding_idx=0)
with torch.no_grad():
    emb.weight.copy_(torch.tensor([[0.0, 0.0], [1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]))
idx = torch.tensor([[0, 1, 1], [2, 0, 3]])
out = emb(idx)
print(out.shape, out[1])
(out * torch.arange(1.0, 3.0)).sum().backward()
print(emb.weight.grad)
pre = nn.Embedding.from_pretrained(torch.tensor([[1.0, 1.0], [2.0, 2.0]]))
print(pre.weight.requires_grad, pre(torch.tensor([1])))
pre2 = nn.Embedding.from_pretrained(torch.tensor([[1.0, 1.0], [2.0, 2.0]]), freeze=False, padding_idx=1)
print(pre2.weight.requires_grad, pre2.padding_idx)
print(nn.functional.embedding(torch.tensor([2, 0]), torch.eye(3)))
