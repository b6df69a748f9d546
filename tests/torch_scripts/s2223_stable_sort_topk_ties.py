import torch

scores = torch.tensor([3.0, 1.0, 3.0, 2.0, 1.0, 3.0, 0.5])
names = ["a", "b", "c", "d", "e", "f", "g"]
v, i = torch.sort(scores, descending=True, stable=True)
print(v, i, [names[k] for k in i])
v2, i2 = scores.sort(stable=True)
print(i2)
print(torch.argsort(scores, descending=True, stable=True))
records = torch.tensor([[2, 5], [1, 9], [2, 1], [1, 3], [0, 7]])
by_second = records[records[:, 1].argsort(stable=True)]
lexi = by_second[by_second[:, 0].argsort(stable=True)]
print(lexi.tolist())
vals, idx = torch.tensor([5, 1, 5, 3, 5]).topk(3)
print(vals, sorted(idx.tolist()))
m = torch.tensor([[0.2, 0.9, 0.9], [0.5, 0.1, 0.7]])
print(m.topk(1, dim=0), m.topk(2, largest=False).indices)
nan_sort = torch.tensor([1.0, float("nan"), -1.0, float("inf"), float("nan")])
print(nan_sort.sort(), nan_sort.sort(descending=True).values)
print(torch.msort(torch.tensor([[3, 1], [1, 2], [2, 0]])))
ints = torch.tensor([3, -1, 2], dtype=torch.int32)
print(ints.sort().values.dtype, torch.sort(torch.tensor([True, False, True])).values)
x = torch.tensor([4.0, 2.0, 8.0, 6.0], requires_grad=True)
s, order = x.sort(descending=True)
(s * torch.tensor([1.0, 10.0, 100.0, 1000.0])).sum().backward()
print(x.grad, order)
ranks = torch.empty_like(order)
ranks[order] = torch.arange(4)
print(ranks)
