# gather / scatter puzzles from forum threads: pick the logit of the label per row, per-row
# top-k into a one-hot mask, scatter_ with a scalar value, gather along dim 0, 3-d gather
import torch

logits = torch.tensor([[2.0, 0.5, 1.0], [0.1, 3.0, 0.2], [1.0, 1.0, 4.0]])
y = torch.tensor([0, 2, 2])
print(logits.gather(1, y.unsqueeze(1)).squeeze(1), logits[torch.arange(3), y])
top = logits.topk(2, dim=1).indices
mask = torch.zeros_like(logits).scatter_(1, top, 1.0)
print(mask, mask.bool().sum())
print(torch.zeros(3, 4).scatter_(1, torch.tensor([[1], [3], [0]]), 5.0))
print(torch.zeros(3, 4, dtype=torch.long).scatter(1, torch.tensor([[1, 2], [3, 3], [0, 1]]), torch.tensor([[1, 2], [3, 4], [5, 6]])))
print(logits.gather(0, torch.tensor([[2, 0, 1]])))
seq = torch.arange(24.0).view(2, 3, 4)
last = torch.tensor([1, 2])
idx = last.view(2, 1, 1).expand(2, 1, 4)
print(seq.gather(1, idx).squeeze(1))
print(torch.gather(seq, 2, torch.tensor([[[0], [1], [2]], [[3], [2], [1]]])).squeeze(-1))
x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
x.gather(1, torch.tensor([[1, 1], [0, 1]])).sum().backward()
print(x.grad)
emb = torch.zeros(5, 2).index_add(0, torch.tensor([0, 4, 0]), torch.ones(3, 2))
print(emb)
print(torch.zeros(4).index_fill(0, torch.tensor([1, 3]), -1.0), torch.arange(6).view(2, 3).index_copy(1, torch.tensor([2, 0]), torch.tensor([[9, 8], [7, 6]])))
print(torch.take(logits, torch.tensor([0, 4, 8])), torch.ones(2, 3).put_(torch.tensor([1, 5]), torch.tensor([7.0, 8.0])))
