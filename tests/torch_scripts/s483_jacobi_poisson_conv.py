import torch
import torch.nn.functional as F

n = 8
h = 1.0 / (n + 1)
f = torch.ones(1, 1, n, n)
kernel = torch.tensor([[0.0, 1.0, 0.0], [1.0, 0.0, 1.0], [0.0, 1.0, 0.0]]).view(1, 1, 3, 3)
u = torch.zeros(1, 1, n, n)
for it in range(200):
    u = 0.25 * (F.conv2d(F.pad(u, (1, 1, 1, 1)), kernel) + h * h * f)
print(u.shape, round(u.max().item(), 6), round(u[0, 0, 0, 0].item(), 6))
lap_k = torch.tensor([[0.0, 1.0, 0.0], [1.0, -4.0, 1.0], [0.0, 1.0, 0.0]]).view(1, 1, 3, 3) / h ** 2
res = F.conv2d(F.pad(u, (1, 1, 1, 1)), lap_k) + f
print(round(res.abs().max().item(), 4))
src = torch.full((1, 1, n, n), 1.0, requires_grad=True)
v = torch.zeros(1, 1, n, n)
for it in range(30):
    v = 0.25 * (F.conv2d(F.pad(v, (1, 1, 1, 1)), kernel) + h * h * src)
v[0, 0, n // 2, n // 2].backward()
print(src.grad[0, 0, n // 2].round(decimals=6))
print(F.pad(torch.arange(4.0).view(1, 1, 2, 2), (1, 1, 1, 1), mode="reflect"), F.pad(torch.arange(3.0).view(1, 1, 3), (2, 1), mode="replicate"))
print(F.pad(torch.arange(3.0).view(1, 1, 3), (1, 2), mode="circular"), F.pad(torch.ones(1, 2), (1, 1), value=-1.0))
