# sort with stable=True on ties, descending stable, topk/kthvalue/argsort with repeated values
import torch

x = torch.tensor([3, 1, 2, 1, 3, 2, 1])
v, i = torch.sort(x, stable=True)
print(v, i)
v, i = torch.sort(x, descending=True, stable=True)
print(v, i)
print(torch.argsort(x, stable=True), x.argsort(dim=0, descending=True, stable=True))
f = torch.tensor([[0.5, 0.1, 0.5, 0.9], [2.0, 2.0, 1.0, 2.0]])
print(torch.sort(f, dim=1, stable=True))
print(torch.topk(torch.tensor([1.0, 5.0, 3.0, 5.0, 2.0]), 2).values)
print(torch.topk(torch.tensor([4.0, 1.0, 3.0, 2.0]), 2, largest=False, sorted=True))
print(torch.kthvalue(torch.tensor([3.0, 1.0, 2.0, 5.0]), 2))
print(torch.msort(torch.tensor([[3, 1], [1, 2], [2, 0]])))
words = ["pear", "apple", "fig", "apple"]
keys = torch.tensor([len(w) for w in words])
print([words[j] for j in torch.sort(keys, stable=True).indices.tolist()])
