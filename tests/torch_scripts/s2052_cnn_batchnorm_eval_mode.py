import torch
import torch.nn as nn

class CNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 4, 3, padding=1), nn.BatchNorm2d(4), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(4, 8, 3), nn.BatchNorm2d(8), nn.ReLU(), nn.AdaptiveAvgPool2d(1))
        self.head = nn.Sequential(nn.Flatten(), nn.Dropout(0.5), nn.Linear(8, 3))

    def forward(self, x):
        return self.head(self.features(x))

net = CNN()
with torch.no_grad():
    for i, (n, p) in enumerate(net.named_parameters()):
        p.copy_(torch.cos(torch.arange(p.numel()) * 0.7 + i).reshape(p.shape) * 0.4)
x = torch.sin(torch.arange(2 * 1 * 10 * 10) * 0.21).reshape(2, 1, 10, 10)
net.train()
net.head[1].p = 0.0
opt = torch.optim.Adam(net.parameters(), lr=1e-2)
target = torch.tensor([0, 2])
for step in range(4):
    opt.zero_grad()
    loss = nn.functional.cross_entropy(net(x), target)
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 5))
bn = net.features[1]
print(bn.num_batches_tracked, bn.running_mean.round(decimals=5), bn.running_var.round(decimals=5))
net.head[1].p = 0.5
net.eval()
with torch.no_grad():
    a = net(x)
    b = net(x)
print(torch.equal(a, b), a.round(decimals=4))
print(net.training, net.head[1].training)
print([type(m).__name__ for m in net.modules()][:6])
sd = net.state_dict()
print([k for k in sd if "features.1" in k])
