# Embedding with padding_idx: its row is zero and gets no grad; max_norm renormalises
import torch
import torch.nn as nn

emb = nn.Embedding(4, 2, padding_idx=0)
with torch.no_grad():
    emb.weight.copy_(torch.tensor([[0.0, 0.0], [1.0, 2.0], [3.0, 4.0], [-1.0, 1.0]]))
idx = torch.tensor([[0, 1, 1], [2, 0, 3]])
out = emb(idx)
print(out.shape)
out.sum().backward()
print(emb.weight.grad)
e2 = nn.Embedding(3, 2, max_norm=1.0)
with torch.no_grad():
    e2.weight.copy_(torch.tensor([[3.0, 4.0], [0.3, 0.4], [0.0, 2.0]]))
print(e2(torch.tensor([0, 1])))
print(e2.weight)
print(nn.Embedding.from_pretrained(torch.eye(3), freeze=True).weight.requires_grad)
