# CIFAR-10 tutorial CNN fed with fixed fake images: shapes, parameter count, one SGD step
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 6, 5)
        self.pool = nn.MaxPool2d(2, 2)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = self.pool(F.relu(self.conv2(x)))
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        x = self.fc3(x)
        return x


net = Net()
print(net)
total = sum(p.numel() for p in net.parameters())
trainable = sum(p.numel() for p in net.parameters() if p.requires_grad)
print(f"Total params: {total:,} trainable: {trainable}")
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        k = torch.arange(p.numel(), dtype=p.dtype).reshape(p.shape)
        p.copy_(0.05 * torch.sin(k * 0.7 + i))

images = torch.cos(torch.arange(4 * 3 * 32 * 32, dtype=torch.float64) * 0.001).reshape(4, 3, 32, 32)
labels = torch.tensor([3, 8, 8, 0])
classes = ('plane', 'car', 'bird', 'cat', 'deer', 'dog', 'frog', 'horse', 'ship', 'truck')
criterion = nn.CrossEntropyLoss()
optimizer = optim.SGD(net.parameters(), lr=0.001, momentum=0.9)
for step in range(3):
    optimizer.zero_grad()
    outputs = net(images)
    loss = criterion(outputs, labels)
    loss.backward()
    optimizer.step()
    print(f"[{step + 1}] loss: {loss.item():.5f}")
print(outputs.shape, net.conv1.weight.grad.shape, net.fc3.bias.grad.abs().sum().item() > 0)
_, predicted = torch.max(outputs, 1)
print('Predicted: ', ' '.join(f'{classes[predicted[j]]:5s}' for j in range(4)))
correct = (predicted == labels).sum().item()
print(f'Accuracy of the network on the 4 test images: {100 * correct // 4} %')
