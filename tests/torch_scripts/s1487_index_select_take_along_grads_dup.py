# gradients of index_select / gather / advanced indexing with duplicated indices accumulate
import torch

x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
idx = torch.tensor([0, 2, 2, 0, 0])
x.index_select(1, idx).sum().backward(); print(x.grad); x.grad = None
x.gather(1, torch.tensor([[1, 1], [0, 2]])).sum().backward(); print(x.grad); x.grad = None
x[[1, 1, 0]].sum().backward(); print(x.grad); x.grad = None
x[:, [2, 2]].pow(2).sum().backward(); print(x.grad); x.grad = None
torch.take(x, torch.tensor([5, 5, 0])).sum().backward(); print(x.grad)
