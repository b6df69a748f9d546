# segment sums/means with scatter_add and index_add (graph message passing), gradients
import torch

src = torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]], requires_grad=True)
seg = torch.tensor([0, 2, 0, 1])
out = torch.zeros(3, 2).scatter_add(0, seg[:, None].expand(-1, 2), src)
print(out)
cnt = torch.bincount(seg, minlength=3).clamp(min=1).unsqueeze(1)
mean = out / cnt
print(mean)
mean.sum().backward()
print(src.grad)
src.grad = None
agg = torch.zeros(3, 2).index_add(0, seg, src * 2)
agg.pow(2).sum().backward()
print(agg, src.grad)
print(torch.zeros(3, 2).scatter_reduce(0, seg[:, None].expand(-1, 2), src.detach(), reduce="amax", include_self=False))
