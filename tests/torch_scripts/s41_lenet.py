import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):

    def __init__(self):
        super(Net, self).__init__()
        self.conv1 = nn.Conv2d(1, 6, 5)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), (2, 2))
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        x = x.view(-1, self.num_flat_features(x))
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        x = self.fc3(x)
        return x

    def num_flat_features(self, x):
        size = x.size()[1:]
        num_features = 1
        for s in size:
            num_features *= s
        return num_features


net = Net()
print(net)
params = list(net.parameters())
print(len(params))
print(params[0].size())
print([tuple(p.shape) for p in params])


def init_weights(m):
    if isinstance(m, (nn.Conv2d, nn.Linear)):
        with torch.no_grad():
            n = m.weight.numel()
            m.weight.copy_(torch.cos(torch.arange(n, dtype=torch.float64)).reshape(m.weight.shape) / n ** 0.5)
            m.bias.fill_(0.01)


net.apply(init_weights)
input = torch.sin(torch.arange(32 * 32, dtype=torch.float64)).reshape(1, 1, 32, 32)
out = net(input)
print(out.shape, out.detach().numpy().round(6).tolist())
net.zero_grad()
out.backward(torch.linspace(-1, 1, 10).reshape(1, 10))
print(net.conv1.bias.grad.numpy().round(6).tolist())
output = net(input)
target = torch.arange(10, dtype=torch.float64).view(1, -1)
criterion = nn.MSELoss()
loss = criterion(output, target)
print(round(loss.item(), 6))
net.zero_grad()
print('conv1.bias.grad before backward')
print(net.conv1.bias.grad)
loss.backward()
print('conv1.bias.grad after backward')
print(net.conv1.bias.grad.numpy().round(6).tolist())
learning_rate = 0.01
for f in net.parameters():
    f.data.sub_(f.grad.data * learning_rate)
import torch.optim as optim
optimizer = optim.SGD(net.parameters(), lr=0.01)
for i in range(3):
    optimizer.zero_grad()
    output = net(input)
    loss = criterion(output, target)
    loss.backward()
    optimizer.step()
    print(i, round(loss.item(), 5))
batch = torch.cat([input, -input, input * 0.5])
print(net(batch).shape, net.num_flat_features(torch.zeros(3, 16, 5, 5)))
