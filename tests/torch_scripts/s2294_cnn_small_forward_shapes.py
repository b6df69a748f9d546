import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 3, 3)
        self.pool = nn.MaxPool2d(2, 2)
        self.conv2 = nn.Conv2d(3, 4, 2, padding=1)
        self.fc1 = nn.Linear(4 * 2 * 2, 5)
        self.fc2 = nn.Linear(5, 2)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = self.pool(F.relu(self.conv2(x)))
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        return self.fc2(x)


net = Net()
with torch.no_grad():
    for p in net.parameters():
        p.copy_(torch.linspace(-0.4, 0.5, p.numel()).view_as(p))
print(net)
x = torch.linspace(0, 1, 2 * 64).view(2, 1, 8, 8)
shapes = []
h = net.pool(F.relu(net.conv1(x)))
shapes.append(("conv1+pool", tuple(h.shape)))
h = net.pool(F.relu(net.conv2(h)))
shapes.append(("conv2+pool", tuple(h.shape)))
h = torch.flatten(h, 1)
shapes.append(("flatten", tuple(h.shape)))
print(shapes)
out = net(x)
print(out.round(decimals=5))
labels = torch.tensor([1, 0])
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(net.parameters(), lr=0.05, momentum=0.9)
for epoch in range(4):
    optimizer.zero_grad()
    loss = criterion(net(x), labels)
    loss.backward()
    optimizer.step()
    print(epoch, round(loss.item(), 5))
_, predicted = torch.max(net(x), 1)
print(predicted, (predicted == labels).sum().item())
print(net.conv1.weight.grad.shape, net.conv1.weight.grad.abs().sum() > 0)
