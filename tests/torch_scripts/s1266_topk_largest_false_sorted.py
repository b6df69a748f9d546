# topk smallest, argsort stable, msort, sort of ints
import torch

x = torch.tensor([5.0, 2.0, 8.0, 2.0, 1.0])
print(torch.topk(x, 3, largest=False))
print(torch.argsort(x, stable=True), torch.argsort(x, descending=True, stable=True))
print(torch.msort(torch.tensor([[3.0, 1.0], [1.0, 2.0]])))
print(torch.sort(torch.tensor([3, 1, 2]), descending=True))
print(torch.sort(x, stable=True).indices)
print(x.topk(1).indices.dtype, x.argmax(), x.argmin(), x.argmax(dim=0, keepdim=True))
