import torch
import torch.nn as nn
import torch.nn.functional as F

# Synthetic 8x8 images: horizontal bars (class 0) vs vertical bars (class 1)
imgs, labels = [], []
for pos in range(1, 7):
    h = torch.zeros(8, 8)
    h[pos, 1:7] = 1.0
    imgs.append(h)
    labels.append(0)
    imgs.append(h.T.clone())
    labels.append(1)
X = torch.stack(imgs).unsqueeze(1)
y = torch.tensor(labels)
print(X.shape, y.shape, y.bincount())


class BarNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 4, kernel_size=3, padding=1)
        self.pool = nn.MaxPool2d(2)
        self.conv2 = nn.Conv2d(4, 6, 3)
        self.gap = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(6, 2)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = F.relu(self.conv2(x))
        return self.fc(torch.flatten(self.gap(x), 1))


net = BarNet()
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(0.4 * torch.sin(1.7 * torch.arange(p.numel(), dtype=p.dtype) + i).view_as(p))
print(net)
print(sum(p.numel() for p in net.parameters() if p.requires_grad))
opt = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
for epoch in range(25):
    opt.zero_grad()
    out = net(X)
    loss = F.cross_entropy(out, y)
    loss.backward()
    opt.step()
    if epoch % 8 == 0:
        acc = (out.argmax(1) == y).float().mean().item()
        print(epoch, round(loss.item(), 5), acc)
net.eval()
with torch.no_grad():
    probs = F.softmax(net(X), dim=1)
print(probs[:4].round(decimals=3))
feat = net.pool(F.relu(net.conv1(X[:1])))
print(feat.shape, F.avg_pool2d(X[:1], 2).shape, F.max_pool2d(X[:1], 3, stride=2, padding=1).shape)
