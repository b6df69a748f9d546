import torch

x = torch.linspace(-2, 2, 9, requires_grad=True)
# smooth-ish piecewise function built with where and broadcasting
y = torch.where(x < -1, -x - 0.5, torch.where(x > 1, x ** 2 - 0.5, 0.5 * x ** 2))
y.sum().backward()
print(y.detach(), x.grad, sep="\n")
a = torch.tensor([[1.0], [-1.0]])
b = torch.tensor([0.5, -0.5, 2.0])
print(torch.where(a * b > 0, a, b))
print(torch.where(b > 0, b, 0.0), torch.where(b > 0, 1, 0).dtype)
print(torch.where(torch.tensor([True, False]), 2, 3.5))
z = torch.tensor([0.0, 1.0, 4.0], requires_grad=True)
safe = torch.where(z > 0, z, torch.ones_like(z))
out = torch.where(z > 0, torch.sqrt(safe), torch.zeros_like(z))
out.sum().backward()
print(z.grad)
z.grad = None
naive = torch.where(z > 0, torch.sqrt(z), torch.zeros_like(z))
naive.sum().backward()
print(z.grad)
i = torch.tensor([1, 2, 3])
print(torch.where(i % 2 == 0, i, -i), torch.where(i > 1))
print(torch.where(torch.tensor(True), torch.tensor(1.0), torch.tensor([2.0, 3.0])))
