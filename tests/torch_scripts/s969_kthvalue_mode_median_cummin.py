# kthvalue / median / nanmedian / mode / cummin / cummax: values and indices, keepdim, and grads
import torch

x = torch.tensor([[3.0, 1.0, 2.0, 1.0], [0.5, 4.0, 4.0, -1.0], [2.0, 2.0, 2.0, 3.0]])
v, i = torch.kthvalue(x, 2, dim=1)
print(v, i)
print(torch.kthvalue(x, 3, dim=0, keepdim=True))
print(x.median(), x.median(dim=0))
print(torch.tensor([1.0, float("nan"), 3.0, 2.0]).nanmedian())
print(torch.tensor([[1.0, float("nan")], [float("nan"), float("nan")]]).nanmedian(dim=1))
print(torch.mode(torch.tensor([[1, 2, 2, 3, 3], [5, 5, 4, 4, 1]]), dim=1))
print(x.cummin(dim=1))
print(x.cummax(dim=0).indices)
y = x.clone().requires_grad_()
torch.kthvalue(y, 2, dim=1).values.sum().backward()
print(y.grad)
y.grad = None
y.median(dim=1).values.sum().backward()
print(y.grad)
y.grad = None
y.cummin(dim=1).values.sum().backward()
print(y.grad)
print(torch.msort(x[:, :3]), torch.argsort(x, dim=1, descending=True, stable=True))
