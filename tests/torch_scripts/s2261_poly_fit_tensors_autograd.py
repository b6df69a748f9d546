import math
import torch

dtype = torch.float
x = torch.linspace(-math.pi, math.pi, 2000, dtype=dtype)
y = torch.sin(x)
a = torch.tensor(0.1, dtype=dtype, requires_grad=True)
b = torch.tensor(-0.2, dtype=dtype, requires_grad=True)
c = torch.tensor(0.3, dtype=dtype, requires_grad=True)
d = torch.tensor(0.05, dtype=dtype, requires_grad=True)
learning_rate = 1e-6
for t in range(2000):
    y_pred = a + b * x + c * x ** 2 + d * x ** 3
    loss = (y_pred - y).pow(2).sum()
    if t % 500 == 99:
        print(t, round(loss.item(), 4))
    loss.backward()
    with torch.no_grad():
        a -= learning_rate * a.grad
        b -= learning_rate * b.grad
        c -= learning_rate * c.grad
        d -= learning_rate * d.grad
        a.grad = None
        b.grad = None
        c.grad = None
        d.grad = None
print(f'Result: y = {a.item():.5f} + {b.item():.5f} x + {c.item():.5f} x^2 + {d.item():.5f} x^3')
print(a.is_leaf, a.grad, loss.grad_fn.name(), type(loss.grad_fn).__name__)
