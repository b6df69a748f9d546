# Numerical calculus helpers from blog posts: finite differences with diff(prepend=),
# trapezoid / cumulative_trapezoid integration, gradient() on uneven spacing
import torch

x = torch.linspace(0, 1, 6)
y = x ** 2
print(torch.diff(y), torch.diff(y, n=2), torch.diff(y, prepend=torch.tensor([0.0])))
print(torch.diff(y, append=torch.tensor([2.0, 3.0])))
m = torch.arange(12.0).view(3, 4) ** 2
print(torch.diff(m, dim=0), torch.diff(m, dim=1, n=2))
print(torch.trapezoid(y, x), torch.trapezoid(y, dx=0.2), torch.trapz(y, x))
print(torch.cumulative_trapezoid(y, x), torch.cumulative_trapezoid(m, dim=0))
print(torch.trapezoid(m), torch.trapezoid(m, dim=0))
g, = torch.gradient(y, spacing=0.2)
print(g)
gx, gy = torch.gradient(m)
print(gx, gy)
print(torch.gradient(y, spacing=(x,))[0])
print(torch.gradient(m, dim=1, edge_order=2)[0])
xs = torch.tensor([0.0, 0.5, 1.5, 3.0])
print(torch.gradient(xs ** 3, spacing=(xs,))[0])
w = torch.tensor([1.0, 2.0, 4.0], requires_grad=True)
area = torch.trapezoid(w ** 2, dx=0.5)
area.backward()
print(area, w.grad)
