# var/std with correction, dims and keepdim; var_mean; gradients including a constant row
import torch

x = torch.tensor([[1.0, 2.0, 4.0], [3.0, 3.0, 3.0]], requires_grad=True)
print(x.var(1), x.var(1, correction=0), x.std(), x.std(0, keepdim=True))
print(torch.var_mean(x, 1), torch.std_mean(x, dim=0, unbiased=False))
x.std(1).sum().backward()
print(x.grad)
x.grad = None
x.var(1, correction=0).sum().backward()
print(x.grad)
y = torch.tensor([5.0], requires_grad=True)
print(y.var(), y.std(correction=0))
