# Printing results of less common ops shows their grad_fn: nansum, masked_select, fmin/fmax, deg2rad, put
import torch

x = torch.tensor([[0.5, float("nan"), 2.0], [-1.0, 3.0, 0.25]], requires_grad=True)
print(x.nansum(), torch.nansum(x, dim=1))
print(torch.masked_select(x, x > 0.4), x.masked_select(torch.tensor([True, False, True])))
print(torch.fmin(x, torch.tensor(1.0)), torch.fmax(x, torch.zeros(2, 3)))
print(torch.deg2rad(torch.tensor([180.0, 90.0], requires_grad=True)), torch.tensor([3.14159], requires_grad=True).rad2deg())
print(x.put(torch.tensor([0, 5]), torch.tensor([9.0, 8.0])), x.detach().put(torch.tensor([1]), torch.tensor([7.0]), accumulate=True))
(torch.nansum(x) + torch.masked_select(x, x > 1).sum() + torch.fmin(x, torch.tensor(1.0)).nansum()).backward()
print(x.grad)
