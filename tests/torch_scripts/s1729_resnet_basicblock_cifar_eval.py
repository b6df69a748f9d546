# A small ResNet (BasicBlock with BatchNorm and a 1x1 downsample shortcut), kaiming_normal_
# replaced by a NumPy draw, trained in train mode (BN batch statistics), evaluated in eval
# mode; fused conv+BN in eval checked to give the same outputs
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

rng = np.random.default_rng(761)


class BasicBlock(nn.Module):
    expansion = 1

    def __init__(self, inp, planes, stride=1):
        super().__init__()
        self.conv1 = nn.Conv2d(inp, planes, 3, stride, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(planes)
        self.conv2 = nn.Conv2d(planes, planes, 3, 1, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(planes)
        self.shortcut = nn.Sequential()
        if stride != 1 or inp != planes:
            self.shortcut = nn.Sequential(nn.Conv2d(inp, planes, 1, stride, bias=False), nn.BatchNorm2d(planes))

    def forward(self, x):
        out = F.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        return F.relu(out + self.shortcut(x))


class ResNet(nn.Module):
    def __init__(self, num_classes=3):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 4, 3, 1, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(4)
        self.layer1 = BasicBlock(4, 4)
        self.layer2 = BasicBlock(4, 8, stride=2)
        self.linear = nn.Linear(8, num_classes)

    def forward(self, x):
        out = F.relu(self.bn1(self.conv1(x)))
        out = self.layer2(self.layer1(out))
        out = F.adaptive_avg_pool2d(out, 1).flatten(1)
        return self.linear(out)


net = ResNet()
for m in net.modules():
    if isinstance(m, (nn.Conv2d, nn.Linear)):
        fan_in = m.weight[0].numel()
        with torch.no_grad():
            m.weight.copy_(torch.from_numpy(rng.normal(0, np.sqrt(2 / fan_in), tuple(m.weight.shape))))
    elif isinstance(m, nn.BatchNorm2d):
        nn.init.constant_(m.weight, 1)
        nn.init.constant_(m.bias, 0)
nn.init.zeros_(net.linear.bias)
X = torch.from_numpy(rng.standard_normal((8, 3, 8, 8)))
Y = torch.from_numpy(rng.integers(0, 3, 8))
opt = torch.optim.SGD(net.parameters(), lr=0.05, momentum=0.9, weight_decay=5e-4)
for it in range(5):
    net.train()
    opt.zero_grad()
    loss = F.cross_entropy(net(X), Y)
    loss.backward()
    opt.step()
    print(it, f"{loss.item():.6f}")
net.eval()
with torch.no_grad():
    out = net(X[:3])
print(out.numpy().round(5))
print(net.layer2.shortcut[1].running_var.numpy().round(5))
fused = torch.nn.utils.fusion.fuse_conv_bn_eval(net.conv1, net.bn1)
with torch.no_grad():
    print(torch.allclose(fused(X), net.bn1(net.conv1(X))), fused.bias.numpy().round(5))
print(sum(p.numel() for p in net.parameters()), len(list(net.buffers())))
