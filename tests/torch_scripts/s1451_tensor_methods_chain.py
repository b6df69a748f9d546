# a chain of tensor methods typical of preprocessing code
import torch

x = torch.tensor([[3.0, -1.0, 2.0, 0.0], [1.0, 4.0, -2.0, 5.0]])
print(x.abs().max(dim=1, keepdim=True).values)
print((x - x.mean(1, keepdim=True)) / x.std(1, keepdim=True))
print(x.t().contiguous().view(-1)[:5], x.flatten()[::3])
print(x.clamp_min(0).sqrt(), x.sign(), x.sgn())
print(x.softmax(0).sum(0), x.argsort(1), x.nan_to_num(posinf=1.0))
print(x.new_zeros(2), x.new_full((1, 2), 7.0), x.new_tensor([1, 2]).dtype, x.new_ones(3, dtype=torch.int32))
print(x.type(torch.int64), x.to(torch.int32).float().dtype, x.numel(), x.dim(), x.nelement())
print(x.tolist(), x[0].item() if x[0].numel() == 1 else x[0, 0].item())
