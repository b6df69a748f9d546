# "Learning PyTorch with Examples": numpy version, manual tensor grads, autograd, nn, optim,
# a custom autograd Function (Legendre P3) and the DynamicNet with python's seeded random
import math
import random
import numpy as np
import torch

x_np = np.linspace(-math.pi, math.pi, 200)
y_np = np.sin(x_np)
a, b, c, d = 0.1, -0.2, 0.3, 0.05
for t in range(500):
    y_pred = a + b * x_np + c * x_np ** 2 + d * x_np ** 3
    grad_y_pred = 2.0 * (y_pred - y_np)
    a -= 1e-6 * grad_y_pred.sum()
    b -= 1e-6 * (grad_y_pred * x_np).sum()
    c -= 1e-6 * (grad_y_pred * x_np ** 2).sum()
    d -= 1e-6 * (grad_y_pred * x_np ** 3).sum()
print(f'numpy: y = {a:.5f} + {b:.5f} x + {c:.5f} x^2 + {d:.5f} x^3')

dtype = torch.float
device = torch.device("cpu")
x = torch.linspace(-math.pi, math.pi, 200, device=device, dtype=dtype)
y = torch.sin(x)
a, b, c, d = (torch.tensor(v, device=device, dtype=dtype, requires_grad=True) for v in (0.1, -0.2, 0.3, 0.05))
learning_rate = 1e-6
for t in range(500):
    y_pred = a + b * x + c * x ** 2 + d * x ** 3
    loss = (y_pred - y).pow(2).sum()
    if t % 100 == 99:
        print(t, round(loss.item(), 3))
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
print(f'autograd: y = {a.item():.5f} + {b.item():.5f} x + {c.item():.5f} x^2 + {d.item():.5f} x^3', a.dtype)


class LegendrePolynomial3(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input):
        ctx.save_for_backward(input)
        return 0.5 * (5 * input ** 3 - 3 * input)

    @staticmethod
    def backward(ctx, grad_output):
        input, = ctx.saved_tensors
        return grad_output * 1.5 * (5 * input ** 2 - 1)


a = torch.full((), 0.0, device=device, dtype=dtype, requires_grad=True)
b = torch.full((), -1.0, device=device, dtype=dtype, requires_grad=True)
c = torch.full((), 0.0, device=device, dtype=dtype, requires_grad=True)
d = torch.full((), 0.3, device=device, dtype=dtype, requires_grad=True)
for t in range(300):
    P3 = LegendrePolynomial3.apply
    y_pred = a + b * P3(c + d * x)
    loss = (y_pred - y).pow(2).sum()
    loss.backward()
    with torch.no_grad():
        for p in (a, b, c, d):
            p -= 5e-6 * p.grad
            p.grad = None
print(f'Legendre: y = {a.item():.5f} + {b.item():.5f} * P3({c.item():.5f} + {d.item():.5f} x)', y_pred.grad_fn.__class__.__name__)

p = torch.tensor([1, 2, 3])
xx = x.unsqueeze(-1).pow(p)
model = torch.nn.Sequential(torch.nn.Linear(3, 1), torch.nn.Flatten(0, 1)).to(dtype)
with torch.no_grad():
    model[0].weight.copy_(torch.tensor([[0.5, 0.0, -0.05]]))
    model[0].bias.zero_()
loss_fn = torch.nn.MSELoss(reduction='sum')
optimizer = torch.optim.RMSprop(model.parameters(), lr=1e-3)
for t in range(200):
    y_pred = model(xx)
    loss = loss_fn(y_pred, y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
linear_layer = model[0]
print(xx.shape, y_pred.shape, f'nn: y = {linear_layer.bias.item():.4f} + {linear_layer.weight[:, 0].item():.4f} x + {linear_layer.weight[:, 1].item():.4f} x^2 + {linear_layer.weight[:, 2].item():.4f} x^3')


class DynamicNet(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.a = torch.nn.Parameter(torch.tensor(0.1))
        self.b = torch.nn.Parameter(torch.tensor(-0.1))
        self.c = torch.nn.Parameter(torch.tensor(0.2))
        self.d = torch.nn.Parameter(torch.tensor(0.05))
        self.e = torch.nn.Parameter(torch.tensor(0.01))

    def forward(self, x):
        y = self.a + self.b * x + self.c * x ** 2 + self.d * x ** 3
        for exp in range(4, random.randint(4, 6)):
            y = y + self.e * x ** exp
        return y

    def string(self):
        return f'y = {self.a.item():.4f} + {self.b.item():.4f} x + {self.c.item():.4f} x^2 + {self.d.item():.4f} x^3 + {self.e.item():.4f} x^4 ? + {self.e.item():.4f} x^5 ?'


random.seed(0)
x = x.double()
y = y.double()
model = DynamicNet()
criterion = torch.nn.MSELoss(reduction='sum')
optimizer = torch.optim.SGD(model.parameters(), lr=1e-8, momentum=0.9)
for t in range(300):
    y_pred = model(x)
    loss = criterion(y_pred, y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print(f'Result: {model.string()}')
