# Neural ODE fitted to a spiral trajectory with a hand-written fixed-step RK4 solver,
# backpropagating through the solver; MSE on the trajectory, Adam, cosine schedule
import numpy as np
import torch
import torch.nn as nn

true_A = torch.tensor([[-0.1, 2.0], [-2.0, -0.1]])
y0 = torch.tensor([[2.0, 0.0]])
t = torch.linspace(0.0, 2.0, 21)


def rk4(f, y, ts):
    ys = [y]
    for t0, t1 in zip(ts[:-1], ts[1:]):
        h = t1 - t0
        k1 = f(t0, y)
        k2 = f(t0 + h / 2, y + h / 2 * k1)
        k3 = f(t0 + h / 2, y + h / 2 * k2)
        k4 = f(t1, y + h * k3)
        y = y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        ys.append(y)
    return torch.stack(ys)


with torch.no_grad():
    true_y = rk4(lambda _, y: (y ** 3) @ true_A, y0, t)


class ODEFunc(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2, 16), nn.Tanh(), nn.Linear(16, 2))
        self.nfe = 0
        for m in self.net.modules():
            if isinstance(m, nn.Linear):
                nn.init.normal_(m.weight, mean=0, std=0.1) if False else None
                with torch.no_grad():
                    m.weight.copy_(0.1 * torch.cos(torch.arange(m.weight.numel()) * 0.77)
                                   .view_as(m.weight))
                nn.init.constant_(m.bias, val=0)

    def forward(self, t, y):
        self.nfe += 1
        return self.net(y ** 3)


func = ODEFunc()
opt = torch.optim.RMSprop(func.parameters(), lr=1e-2)
sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=10, eta_min=1e-3)
for itr in range(10):
    opt.zero_grad()
    pred_y = rk4(func, y0, t)
    loss = torch.mean(torch.abs(pred_y - true_y))
    loss.backward()
    opt.step()
    sched.step()
    if itr % 3 == 0:
        print(f"iter {itr:02d} loss {loss.item():.6f} lr {opt.param_groups[0]['lr']:.6f}")
print("nfe", func.nfe)
with torch.no_grad():
    pred = rk4(func, y0, t)
print(pred.shape, pred[-1].numpy().round(5), true_y[-1].numpy().round(5))
y0g = y0.clone().requires_grad_(True)
end = rk4(func, y0g, t[:5])[-1].sum()
end.backward()
print("d end / d y0", y0g.grad.numpy().round(6))
