# integer and bool tensors: reductions' dtypes and the errors PyTorch gives
import torch

b = torch.tensor([[True, False, True], [True, True, False]])
print(b.sum(), b.sum().dtype, b.sum(0), b.any(1), b.all(), b.cumsum(1), b.cumsum(1).dtype)
i = torch.tensor([[1, 2], [3, 4]], dtype=torch.int32)
print(i.sum().dtype, i.prod(), i.prod().dtype, i.cumprod(0).dtype, i.max(), i.argmax())
try:
    i.mean()
except RuntimeError as e:
    print("RuntimeError", str(e)[:60])
print(i.float().mean(), i.mean(dtype=torch.float64), i.sum(dtype=torch.float32))
try:
    torch.tensor([1, 2], requires_grad=True)
except RuntimeError as e:
    print("RuntimeError", str(e)[:60])
print(b.float().mean(1), b.int().dtype, b.long().sum(), (~b).sum())
print(torch.tensor([3, 1, 2]).sort(), torch.tensor([1, 2, 2, 3]).unique(return_counts=True))
print(i.to(torch.bool), torch.tensor([0.0, 0.5]).bool(), torch.tensor([-1.7, 1.7]).int())
