import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 4, kernel_size=3, padding=1)
        self.bn1 = nn.BatchNorm2d(4)
        self.conv2 = nn.Conv2d(4, 8, 3, stride=1, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(8, momentum=0.2)
        self.pool = nn.MaxPool2d(2, 2)
        self.drop = nn.Dropout(0.25)
        self.fc = nn.Linear(8 * 2 * 2, 3)

    def forward(self, x):
        x = self.pool(F.relu(self.bn1(self.conv1(x))))
        x = self.pool(F.relu(self.bn2(self.conv2(x))))
        x = torch.flatten(x, 1)
        return self.fc(self.drop(x))


net = Net()
with torch.no_grad():
    for i, (name, p) in enumerate(net.named_parameters()):
        if "bn" in name:
            continue
        p.copy_(0.3 * torch.cos(torch.arange(p.numel(), dtype=p.dtype) * 0.9 + i).reshape(p.shape))
print(net)
print(sum(p.numel() for p in net.parameters()), sum(b.numel() for b in net.buffers()))
g = torch.arange(6 * 64, dtype=torch.float64).reshape(6, 1, 8, 8)
images = torch.sin(g * 0.05) + torch.cos(g * 0.011)
labels = torch.tensor([0, 1, 2, 0, 1, 2])
net.eval()
print(net(images).shape)
net.drop.p = 0.0
net.train()
opt = torch.optim.SGD(net.parameters(), lr=0.05, momentum=0.9, nesterov=True)
for epoch in range(20):
    opt.zero_grad()
    out = net(images)
    loss = F.cross_entropy(out, labels)
    loss.backward()
    opt.step()
    if epoch % 5 == 4:
        print(epoch, round(loss.item(), 5))
print(net.bn1.running_mean.round(decimals=4), net.bn2.num_batches_tracked)
net.eval()
with torch.no_grad():
    print(net(images).argmax(1).tolist())
print(net.conv1.weight.grad.shape, net.bn1.weight.grad.abs().sum() > 0)
