import torch
import torch.nn as nn

torch.manual_seed(0)

class ODEFunc(nn.Module):
    def __init__(self):
        super().__init__()
        self.A = nn.Parameter(torch.tensor([[-0.1, 2.0], [-2.0, -0.1]]))
    def forward(self, t, y):
        return y @ self.A.T + 0.1 * torch.sin(t) * torch.ones_like(y)

def rk4(f, y0, t):
    ys = [y0]
    y = y0
    for i in range(len(t) - 1):
        h = t[i + 1] - t[i]
        k1 = f(t[i], y)
        k2 = f(t[i] + h / 2, y + h * k1 / 2)
        k3 = f(t[i] + h / 2, y + h * k2 / 2)
        k4 = f(t[i] + h, y + h * k3)
        y = y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        ys.append(y)
    return torch.stack(ys)

true_f = ODEFunc()
t = torch.linspace(0, 2, 21)
y0 = torch.tensor([[2.0, 0.0]])
with torch.no_grad():
    true_y = rk4(true_f, y0, t)
print(true_y.shape, true_y[::5].squeeze(1))
model = ODEFunc()
with torch.no_grad():
    model.A.copy_(torch.tensor([[-0.5, 1.0], [-1.0, -0.5]]))
opt = torch.optim.Adam(model.parameters(), lr=0.05)
for it in range(30):
    opt.zero_grad()
    pred = rk4(model, y0, t)
    loss = (pred - true_y).abs().mean()
    loss.backward()
    opt.step()
    if it % 5 == 0:
        print(it, f"{loss.item():.6f}", model.A.grad.norm().item() > 0, [round(a, 8) for a in model.A.data.flatten().tolist()[:2]])
print(model.A.detach())
print(torch.linalg.eigvalsh(model.A.detach() + model.A.detach().T), torch.linalg.matrix_norm(model.A.detach(), ord=2))
