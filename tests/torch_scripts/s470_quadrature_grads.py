import torch

x = torch.linspace(0, torch.pi, 21)
a = torch.tensor(1.5, requires_grad=True)
y = torch.sin(a * x)
I = torch.trapezoid(y, x)
I.backward()
print(round(I.item(), 6), round(a.grad.item(), 6))
a.grad = None
ct = torch.cumulative_trapezoid(torch.sin(a * x), x)
ct[-1].backward()
print(ct.shape, round(ct[-1].item(), 6), round(a.grad.item(), 6))
print(torch.trapezoid(torch.tensor([1.0, 2.0, 3.0]), dx=0.5), torch.trapz(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), dim=0))
h = (x[1] - x[0]).item()
w = torch.ones(21)
w[1:-1:2] = 4
w[2:-1:2] = 2
a.grad = None
simpson = h / 3 * (w * torch.sin(a * x)).sum()
simpson.backward()
print(round(simpson.item(), 6), round(a.grad.item(), 6))
nodes, weights = torch.tensor([-0.7745966692, 0.0, 0.7745966692]), torch.tensor([5 / 9, 8 / 9, 5 / 9])
b = torch.tensor(2.0, requires_grad=True)
gl = (weights * torch.exp(b * nodes)).sum()
gl.backward()
print(round(gl.item(), 6), round(b.grad.item(), 6))
grid = torch.linspace(-1, 1, 5)
Yg, Xg = torch.meshgrid(grid, grid, indexing="ij")
f = torch.exp(-(Xg ** 2 + Yg ** 2))
print(round(torch.trapezoid(torch.trapezoid(f, grid, dim=1), grid).item(), 6))
print(torch.gradient(torch.tensor([1.0, 4.0, 9.0, 16.0]), spacing=1.0), torch.diff(torch.tensor([1.0, 4.0, 9.0]), n=2))
