# std / var with correction, unbiased, keepdim, var_mean / std_mean, and gradients
import torch

x = torch.tensor([[1.0, 2.0, 4.0, 7.0], [0.0, 0.0, 1.0, 1.0]], requires_grad=True)
print(x.var(1), x.var(1, unbiased=False), x.var(1, correction=2), x.std(dim=0, keepdim=True))
print(torch.var_mean(x, dim=1), torch.std_mean(x, dim=1, correction=0))
(x.std(1).sum() + x.var(correction=0)).backward()
print(x.grad)
print(torch.tensor([3.0]).std(), torch.tensor([3.0]).var(correction=0))
