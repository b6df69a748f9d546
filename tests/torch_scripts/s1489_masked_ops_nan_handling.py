# nanmean/nansum/nan_to_num gradients and masked means written by hand
import torch

x = torch.tensor([1.0, float("nan"), 3.0, float("nan")], requires_grad=True)
torch.nanmean(x).backward(); print(x.grad); x.grad = None
torch.nansum(x * 2).backward(); print(x.grad); x.grad = None
torch.nan_to_num(x, nan=0.0).sum().backward(); print(x.grad); x.grad = None
m = ~x.isnan()
(torch.where(m, x, 0.0).sum() / m.sum()).backward(); print(x.grad)
print(torch.nanmedian(x.detach()), torch.nanquantile(x.detach(), 0.5))
