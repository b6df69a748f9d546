# Masking idioms: masked_fill with -inf before softmax, masked_select, boolean indexing
# assignment, where with scalar, masked_scatter, padding masks for mean pooling
import torch

scores = torch.tensor([[1.0, 2.0, 3.0, 4.0], [0.5, 0.5, 0.5, 0.5]])
lens = torch.tensor([2, 3])
pad = torch.arange(4)[None, :] >= lens[:, None]
probs = scores.masked_fill(pad, float("-inf")).softmax(-1)
print(pad, probs)
print(scores.masked_select(~pad), scores[~pad].shape)
h = torch.arange(24.0).view(2, 4, 3)
keep = (~pad).unsqueeze(-1).float()
print((h * keep).sum(1) / keep.sum(1))
x = torch.tensor([1.0, -2.0, 3.0, -4.0])
x[x < 0] = 0
print(x)
x[torch.tensor([True, False, True, False])] += 10
print(x)
print(torch.where(x > 5, x, 0.0), torch.where(x > 5, 1, 0), torch.where(x > 5))
t = torch.zeros(2, 3)
print(t.masked_scatter(torch.tensor([[True, False, True], [False, True, False]]), torch.tensor([7.0, 8.0, 9.0, 10.0])))
w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
out = w.masked_fill(torch.tensor([False, True, False]), 0.0).sum()
out.backward()
print(w.grad)
big = torch.arange(10)
print(big[(big > 2) & (big < 7)], big[(big < 2) | (big > 8)], big[~(big % 2 == 0)])
print(torch.masked_fill(torch.ones(2, 2), torch.tensor([True, False]), 5.0))
print(torch.ones(3).masked_fill(torch.tensor(True), 2.0), torch.ones(3).masked_fill(torch.tensor([False, True, False]), torch.tensor(9.0)))
