import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 4, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(4)
        self.conv2 = nn.Conv2d(4, 8, 3, stride=2, padding=1, groups=2)
        self.pool = nn.AdaptiveAvgPool2d((1, 1))
        self.fc = nn.Linear(8, 3)
        self.drop = nn.Dropout(0.5)

    def forward(self, x):
        x = F.relu(self.bn1(self.conv1(x)))
        x = F.max_pool2d(x, 2, ceil_mode=True)
        x = F.gelu(self.conv2(x))
        return self.fc(self.drop(torch.flatten(self.pool(x), 1)))


net = Net()
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=p.dtype) + i).view_as(p) * 0.2)
x = torch.sin(torch.arange(2 * 1 * 7 * 7, dtype=torch.float64)).view(2, 1, 7, 7)
net.train()
y = net.drop.p and net(x)
print(y.shape, net.bn1.running_mean.round(decimals=4), net.bn1.num_batches_tracked)
net.eval()
y = net(x)
print(y.round(decimals=4))
loss = F.cross_entropy(y, torch.tensor([0, 2]), label_smoothing=0.1)
loss.backward()
print(round(loss.item(), 5), net.conv1.weight.grad.abs().sum().round(decimals=4), net.conv2.bias.grad.shape)
print(net)
c1 = nn.Conv1d(2, 3, kernel_size=3, padding="same", dilation=2, padding_mode="reflect")
print(c1(torch.ones(1, 2, 8)).shape, nn.ConvTranspose2d(4, 2, 3, stride=2, output_padding=1)(torch.ones(1, 4, 3, 3)).shape)
print(sum(p.numel() for p in net.parameters() if p.requires_grad))
