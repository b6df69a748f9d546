# NaN ordering in sort/argsort/topk/max/unique-like ops
import torch

nan = float("nan")
x = torch.tensor([3.0, nan, 1.0, nan, 2.0])
print(torch.sort(x))
print(torch.sort(x, descending=True))
print(torch.topk(x, 2), torch.topk(x, 2, largest=False))
print(x.max(), x.argmax(), x.min(), x.amax(), torch.nanmedian(x), x.median())
print(torch.maximum(x, torch.zeros(5)), torch.fmax(x, torch.zeros(5)))
print(x.nan_to_num(0.0, posinf=1.0), x.isnan().sum())
