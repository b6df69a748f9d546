import torch

# Fastest descent from (0, 1) to (1, 0) through n interior heights (energy conservation).
n = 9
xs = torch.linspace(0, 1, n + 2)
heights = torch.linspace(1, 0, n + 2)[1:-1].clone().requires_grad_()
g = 9.81

def travel_time(h):
    y = torch.cat([torch.ones(1), h, torch.zeros(1)])
    depth = (1 - y).clamp(min=1e-9)
    speed = torch.sqrt(2 * g * depth)
    ds = torch.sqrt((xs[1:] - xs[:-1]) ** 2 + (y[1:] - y[:-1]) ** 2)
    vmean = 0.5 * (speed[1:] + speed[:-1])
    return (ds / vmean).sum()

print("straight line", round(travel_time(heights).item(), 5))
opt = torch.optim.Adam([heights], lr=0.02)
for step in range(150):
    opt.zero_grad()
    T = travel_time(heights)
    T.backward()
    opt.step()
print("optimised", round(travel_time(heights).item(), 3))
print(heights.detach().min().item() < 0.0, heights.detach()[0].item() < 0.8)
