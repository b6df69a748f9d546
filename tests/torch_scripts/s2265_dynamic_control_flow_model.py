import math
import torch


class DynamicNet(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.a = torch.nn.Parameter(torch.tensor(0.1))
        self.b = torch.nn.Parameter(torch.tensor(0.6))
        self.c = torch.nn.Parameter(torch.tensor(-0.05))
        self.d = torch.nn.Parameter(torch.tensor(-0.08))
        self.e = torch.nn.Parameter(torch.tensor(0.001))
        self.step = 0

    def forward(self, x):
        y = self.a + self.b * x + self.c * x ** 2 + self.d * x ** 3
        self.step += 1
        for exp in range(4, 4 + self.step % 3):
            y = y + self.e * x ** exp
        return y


x = torch.linspace(-math.pi, math.pi, 1000)
y = torch.sin(x)
model = DynamicNet()
criterion = torch.nn.MSELoss(reduction='sum')
optimizer = torch.optim.SGD(model.parameters(), lr=1e-8, momentum=0.9)
for t in range(300):
    y_pred = model(x)
    loss = criterion(y_pred, y)
    if t % 60 == 59:
        print(t, f"{loss.item():.4f}", y_pred.grad_fn.name())
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print({k: round(v.item(), 5) for k, v in model.state_dict().items()})
print(model.e.grad is not None, optimizer.state_dict()['param_groups'][0]['momentum'])
