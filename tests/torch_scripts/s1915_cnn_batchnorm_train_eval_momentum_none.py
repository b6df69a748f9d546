# A small CNN with BatchNorm2d as a CIFAR tutorial trains it: running stats in train(),
# eval() using them, momentum=None cumulative averaging, num_batches_tracked,
# track_running_stats=False and affine=False variants, and reset_running_stats()
import torch
import torch.nn as nn

net = nn.Sequential(nn.Conv2d(1, 3, 3, padding=1), nn.BatchNorm2d(3), nn.ReLU(),
                    nn.MaxPool2d(2), nn.Conv2d(3, 2, 3), nn.BatchNorm2d(2, momentum=None),
                    nn.Flatten(), nn.Linear(2, 2))
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float64) * 0.8 + i).view_as(p) * 0.5)
x = torch.cos(torch.arange(2 * 1 * 6 * 6, dtype=torch.float64) * 0.37).view(2, 1, 6, 6)
y = torch.tensor([0, 1])
opt = torch.optim.SGD(net.parameters(), lr=0.1)
for step in range(3):
    opt.zero_grad()
    loss = nn.functional.cross_entropy(net(x + 0.1 * step), y)
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.6f}", net[1].running_mean.numpy().round(5),
          net[5].running_var.numpy().round(5), net[5].num_batches_tracked.item())
net.eval()
with torch.no_grad():
    print(net(x).numpy().round(5))
print(net.training, net[1].training, [k for k in net.state_dict() if "1." in k])
bn = nn.BatchNorm1d(3, affine=False, track_running_stats=False)
z = torch.arange(12.0).view(4, 3) ** 1.5
print(bn(z).sum(0).abs().max().item() < 1e-12, bn.running_mean, list(bn.state_dict()))
bn.eval()
print(bn(z)[0].numpy().round(5))
net[1].reset_running_stats()
print(net[1].running_mean, net[1].running_var, net[1].num_batches_tracked)
print(net[1])
