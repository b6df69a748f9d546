# manual SGD as in the 60-minute blitz: update under no_grad, grad.zero_() between steps
import torch

x = torch.linspace(-1, 1, 5)
y = 3 * x ** 2 - x + 0.5
a = torch.tensor(0.0, requires_grad=True)
b = torch.tensor(0.0, requires_grad=True)
c = torch.tensor(0.0, requires_grad=True)
for t in range(200):
    pred = a * x ** 2 + b * x + c
    loss = (pred - y).pow(2).sum()
    loss.backward()
    with torch.no_grad():
        for p in (a, b, c):
            p -= 0.05 * p.grad
            p.grad.zero_()
print(f"{a.item():.4f} {b.item():.4f} {c.item():.4f} {loss.item():.6f}")
print(a.grad, a.is_leaf, a.requires_grad)
