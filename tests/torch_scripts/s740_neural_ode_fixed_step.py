# Neural ODE with a hand-written fixed-step RK4 solver fitted to a spiral, backprop through solver
import torch
import torch.nn as nn


class ODEFunc(nn.Module):
    def __init__(self):
        super(ODEFunc, self).__init__()
        self.net = nn.Sequential(nn.Linear(2, 16), nn.Tanh(), nn.Linear(16, 2))
        for m in self.net.modules():
            if isinstance(m, nn.Linear):
                nn.init.normal_(m.weight, mean=0, std=0.1)
                nn.init.constant_(m.bias, val=0)
        self.nfe = 0

    def forward(self, t, y):
        self.nfe += 1
        return self.net(y ** 3)


def odeint_rk4(func, y0, t):
    ys = [y0]
    y = y0
    for i in range(len(t) - 1):
        h = t[i + 1] - t[i]
        k1 = func(t[i], y)
        k2 = func(t[i] + h / 2, y + h / 2 * k1)
        k3 = func(t[i] + h / 2, y + h / 2 * k2)
        k4 = func(t[i] + h, y + h * k3)
        y = y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        ys.append(y)
    return torch.stack(ys)


true_A = torch.tensor([[-0.1, 2.0], [-2.0, -0.1]])
t = torch.linspace(0.0, 2.0, 21)
true_y0 = torch.tensor([[2.0, 0.0]])
with torch.no_grad():
    true_y = odeint_rk4(lambda t, y: torch.mm(y ** 3, true_A), true_y0, t)
print(true_y.shape, true_y[-1].round(decimals=4))

func = ODEFunc()
with torch.no_grad():
    for i, p in enumerate(func.parameters()):
        p.copy_(0.1 * torch.cos(torch.arange(p.numel(), dtype=p.dtype) * 0.5 + i).view_as(p))
optimizer = torch.optim.RMSprop(func.parameters(), lr=1e-3)
for itr in range(1, 6):
    optimizer.zero_grad()
    pred_y = odeint_rk4(func, true_y0, t)
    loss = torch.mean(torch.abs(pred_y - true_y))
    loss.backward()
    optimizer.step()
    print('Iter {:04d} | Total Loss {:.6f}'.format(itr, loss.item()))
print(func.nfe, pred_y.requires_grad, pred_y.grad_fn is not None)
