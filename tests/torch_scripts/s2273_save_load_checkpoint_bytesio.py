import io
import torch
import torch.nn as nn
import torch.optim as optim


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 6)
        self.bn = nn.BatchNorm1d(6)
        self.fc2 = nn.Linear(6, 2)

    def forward(self, x):
        return self.fc2(torch.relu(self.bn(self.fc1(x))))


def init(net):
    with torch.no_grad():
        for i, p in enumerate(net.parameters()):
            p.copy_(torch.linspace(-0.5, 0.5, p.numel()).view_as(p) + 0.01 * i)
    return net


net = init(Net())
optimizer = optim.SGD(net.parameters(), lr=0.001, momentum=0.9)
print("Model's state_dict:")
for param_tensor in net.state_dict():
    print(param_tensor, "\t", net.state_dict()[param_tensor].size())
x = torch.linspace(-1, 1, 32).view(8, 4)
y = torch.tensor([0, 1, 1, 0, 1, 0, 0, 1])
for epoch in range(3):
    optimizer.zero_grad()
    loss = nn.functional.cross_entropy(net(x), y)
    loss.backward()
    optimizer.step()
print("Optimizer's state_dict:")
for var_name in optimizer.state_dict():
    print(var_name, "\t", optimizer.state_dict()[var_name] if var_name == 'param_groups' else len(optimizer.state_dict()[var_name]))
buf = io.BytesIO()
torch.save({
    'epoch': 3,
    'model_state_dict': net.state_dict(),
    'optimizer_state_dict': optimizer.state_dict(),
    'loss': loss,
}, buf)
buf.seek(0)
model = Net()
opt2 = optim.SGD(model.parameters(), lr=0.5, momentum=0.1)
checkpoint = torch.load(buf, weights_only=True)
print(model.load_state_dict(checkpoint['model_state_dict']))
opt2.load_state_dict(checkpoint['optimizer_state_dict'])
print(checkpoint['epoch'], round(checkpoint['loss'].item(), 6), checkpoint['loss'].requires_grad)
print(opt2.param_groups[0]['lr'], opt2.param_groups[0]['momentum'])
print(model.bn.num_batches_tracked, model.bn.running_mean.round(decimals=5))
model.eval()
net.eval()
print(torch.equal(model(x), net(x)))
print(opt2.state[model.fc1.weight]['momentum_buffer'].shape)
