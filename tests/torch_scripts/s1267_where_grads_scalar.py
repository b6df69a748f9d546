# torch.where with scalar branches, broadcast, grads to both branches; the NaN-gradient trap
import torch

x = torch.tensor([-1.0, 0.0, 2.0], requires_grad=True)
y = torch.tensor([5.0, 5.0, 5.0], requires_grad=True)
out = torch.where(x > 0, x * 2, y)
out.sum().backward()
print(out, x.grad, y.grad)
x.grad = None
z = torch.where(x > 0, x.sqrt(), torch.zeros(()))
z.sum().backward()
print(z, x.grad)
print(torch.where(x > 0, 1.0, 0.0), torch.where(torch.tensor([True, False]), 1, 2))
print(torch.where(torch.tensor([[1.0, 0.0], [0.0, 3.0]])))
x.grad = None
safe = torch.where(x > 0, x, torch.ones_like(x)).sqrt()
torch.where(x > 0, safe, torch.zeros_like(x)).sum().backward()
print(x.grad)
