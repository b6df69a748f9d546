# manual gradient descent with torch.no_grad and grad.zero_(), the classic tutorial loop
import torch

x = torch.linspace(-1, 1, 8)
y = 2 * x ** 3 - x + 0.5
a = torch.zeros((), requires_grad=True)
b = torch.zeros((), requires_grad=True)
c = torch.zeros((), requires_grad=True)
d = torch.zeros((), requires_grad=True)
lr = 0.05
for t in range(200):
    yp = a + b * x + c * x ** 2 + d * x ** 3
    loss = (yp - y).pow(2).sum()
    loss.backward()
    with torch.no_grad():
        for p in (a, b, c, d):
            p -= lr * p.grad
            p.grad.zero_()
    if t % 50 == 0:
        print(t, round(loss.item(), 6))
print([round(p.item(), 5) for p in (a, b, c, d)])
