# Tensors meeting plain Python: iteration, sum() of a list, builtins max/min/sorted/abs/round,
# `in`, bool of one element, math functions on 0-d tensors, operator.index, divmod
import math
import operator
import torch

t = torch.tensor([3.0, 1.0, 2.0])
print([v for v in t], list(t)[0], len(list(torch.ones(2, 3))), sum(t), sum([t, t]))
print(max(t), min(t), sorted(t), abs(-t), round(torch.tensor(2.567).item(), 1))
print(2.0 in t, 5 in t, torch.tensor(1.0) in t)
print(bool(torch.tensor([0.0])), bool(torch.tensor(3)), not torch.tensor(0))
try:
    bool(t)
except RuntimeError as e:
    print(str(e)[:61])
s = torch.tensor(4.0)
print(math.sqrt(s), math.floor(torch.tensor(2.7)), math.isclose(torch.tensor(0.1), 0.1), float(s) / 3)
print(operator.index(torch.tensor(3)), [10, 20, 30, 40][torch.tensor(2)], range(5)[torch.tensor(1):torch.tensor(3)])
try:
    operator.index(torch.tensor(3.0))
except TypeError as e:
    print("TypeError", e)
print(round(torch.tensor(1.2345).item(), 2), abs(torch.tensor(-3)))
print(-torch.tensor([1, -2]), +torch.tensor([1.5]), ~torch.tensor([True, False]), ~torch.tensor([0, 5]))
print(int(torch.tensor(7.9)), float(torch.tensor(3)), complex(torch.tensor(1.5)), str(torch.tensor(2)), f"{torch.tensor(2.5):.3f}")
print(torch.tensor(5) == 5, 5 == torch.tensor(5), 2 ** torch.tensor([1, 2]), 1 / torch.tensor([2.0, 4.0]), 7 // torch.tensor([2, 3]), 7 % torch.tensor([2, 3]))
x, y = torch.tensor([1, 2])
print(x, y, type(x).__name__, *torch.arange(3))
a, *rest = torch.arange(4.0).view(2, 2)
print(a, rest)
print(dict(zip(["a", "b"], torch.tensor([1.0, 2.0]))), {i.item(): 1 for i in torch.tensor([3, 4])})
