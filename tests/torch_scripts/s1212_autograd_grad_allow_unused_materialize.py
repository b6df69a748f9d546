# autograd.grad with allow_unused and materialize_grads
import torch

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0], requires_grad=True)
y = (a ** 2).sum()
ga, gb = torch.autograd.grad(y, (a, b), allow_unused=True, retain_graph=True)
print(ga, gb)
ga, gb = torch.autograd.grad(y, (a, b), materialize_grads=True, retain_graph=True)
print(ga, gb)
try:
    torch.autograd.grad(y, (a, b))
except RuntimeError as e:
    print("RuntimeError:", str(e).split(".")[0])
