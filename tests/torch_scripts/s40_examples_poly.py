import torch
import math
import random

# "Learning PyTorch with Examples": numpy -> tensors -> autograd -> nn -> optim -> custom Module
dtype = torch.double
device = torch.device("cpu")
x = torch.linspace(-math.pi, math.pi, 2000, device=device, dtype=dtype)
y = torch.sin(x)
a = torch.tensor(0.1, device=device, dtype=dtype)
b = torch.tensor(-0.2, device=device, dtype=dtype)
c = torch.tensor(0.05, device=device, dtype=dtype)
d = torch.tensor(0.01, device=device, dtype=dtype)
learning_rate = 1e-6
for t in range(300):
    y_pred = a + b * x + c * x ** 2 + d * x ** 3
    loss = (y_pred - y).pow(2).sum().item()
    if t % 100 == 99:
        print(t, round(loss, 2))
    grad_y_pred = 2.0 * (y_pred - y)
    grad_a = grad_y_pred.sum()
    grad_b = (grad_y_pred * x).sum()
    grad_c = (grad_y_pred * x ** 2).sum()
    grad_d = (grad_y_pred * x ** 3).sum()
    a -= learning_rate * grad_a
    b -= learning_rate * grad_b
    c -= learning_rate * grad_c
    d -= learning_rate * grad_d
print(f'Result: y = {a.item():.5f} + {b.item():.5f} x + {c.item():.5f} x^2 + {d.item():.5f} x^3')


class LegendrePolynomial3(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input):
        ctx.save_for_backward(input)
        return 0.5 * (5 * input ** 3 - 3 * input)

    @staticmethod
    def backward(ctx, grad_output):
        input, = ctx.saved_tensors
        return grad_output * 1.5 * (5 * input ** 2 - 1)


a = torch.full((), 0.0, dtype=dtype, requires_grad=True)
b = torch.full((), -1.0, dtype=dtype, requires_grad=True)
c = torch.full((), 0.0, dtype=dtype, requires_grad=True)
d = torch.full((), 0.3, dtype=dtype, requires_grad=True)
learning_rate = 5e-6
for t in range(200):
    P3 = LegendrePolynomial3.apply
    y_pred = a + b * P3(c + d * x)
    loss = (y_pred - y).pow(2).sum()
    if t % 50 == 49:
        print(t, round(loss.item(), 2))
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
print(f'Result: y = {a.item():.5f} + {b.item():.5f} * P3({abs(c.item()):.5f} + {d.item():.5f} x)')

p = torch.tensor([1, 2, 3])
xx = x.unsqueeze(-1).pow(p)
print(xx.shape, p.dtype)
model = torch.nn.Sequential(torch.nn.Linear(3, 1), torch.nn.Flatten(0, 1))
with torch.no_grad():
    model[0].weight.copy_(torch.tensor([[0.5, 0.0, -0.1]]))
    model[0].bias.zero_()
loss_fn = torch.nn.MSELoss(reduction='sum')
optimizer = torch.optim.RMSprop(model.parameters(), lr=1e-3)
for t in range(100):
    y_pred = model(xx)
    loss = loss_fn(y_pred, y)
    if t % 25 == 24:
        print(t, round(loss.item(), 1))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
linear_layer = model[0]
print(f'Result: y = {linear_layer.bias.item():.4f} + {linear_layer.weight[:, 0].item():.4f} x + {linear_layer.weight[:, 1].item():.4f} x^2 + {linear_layer.weight[:, 2].item():.4f} x^3')


class Polynomial3(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.a = torch.nn.Parameter(torch.tensor(0.1))
        self.b = torch.nn.Parameter(torch.tensor(0.2))
        self.c = torch.nn.Parameter(torch.tensor(-0.1))
        self.d = torch.nn.Parameter(torch.tensor(0.0))

    def forward(self, x):
        return self.a + self.b * x + self.c * x ** 2 + self.d * x ** 3

    def string(self):
        return f'y = {self.a.item():.4f} + {self.b.item():.4f} x + {self.c.item():.4f} x^2 + {self.d.item():.4f} x^3'


model = Polynomial3()
criterion = torch.nn.MSELoss(reduction='sum')
optimizer = torch.optim.SGD(model.parameters(), lr=1e-6)
for t in range(200):
    loss = criterion(model(x), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print(f'Result: {model.string()}', list(dict(model.named_parameters()).keys()))


class DynamicNet(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.a = torch.nn.Parameter(torch.tensor(0.0))
        self.b = torch.nn.Parameter(torch.tensor(1.0))
        self.c = torch.nn.Parameter(torch.tensor(0.0))
        self.d = torch.nn.Parameter(torch.tensor(-0.1))
        self.e = torch.nn.Parameter(torch.tensor(0.0))

    def forward(self, x):
        y = self.a + self.b * x + self.c * x ** 2 + self.d * x ** 3
        for exp in range(4, random.randint(4, 6)):
            y = y + self.e * x ** exp
        return y


random.seed(0)
model = DynamicNet()
optimizer = torch.optim.SGD(model.parameters(), lr=1e-8, momentum=0.9)
for t in range(60):
    loss = criterion(model(x), y)
    if t % 20 == 19:
        print(t, round(loss.item(), 1))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print(round(model.e.item(), 8), model.e.grad is not None)
