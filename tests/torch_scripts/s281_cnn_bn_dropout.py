import torch
from torch import nn


class SmallCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 4, kernel_size=3, padding=1, bias=False),
            nn.BatchNorm2d(4),
            nn.ReLU(inplace=True),
            nn.MaxPool2d(2),
            nn.Conv2d(4, 6, 3, stride=1, padding="same"),
            nn.BatchNorm2d(6, momentum=0.3),
            nn.LeakyReLU(0.1),
            nn.AdaptiveAvgPool2d((2, 2)),
        )
        self.classifier = nn.Sequential(nn.Flatten(), nn.Dropout(0.5), nn.Linear(24, 5))

    def forward(self, x):
        return self.classifier(self.features(x))


net = SmallCNN()
with torch.no_grad():
    for k, v in net.state_dict().items():
        if v.is_floating_point() and "running" not in k:
            v.copy_(torch.cos(torch.arange(v.numel(), dtype=v.dtype)).view_as(v) * 0.3)
x = torch.linspace(-1, 1, 2 * 8 * 8).reshape(2, 1, 8, 8)
x = x * torch.arange(1, 3.0).view(2, 1, 1, 1)
y = torch.tensor([1, 3])
net.train()
net.classifier[1].p = 0.0
out = net(x)
loss = nn.CrossEntropyLoss()(out, y)
loss.backward()
print(out.shape, round(loss.item(), 6))
bn = net.features[1]
print(bn.running_mean.tolist() == [round(v, 20) for v in bn.running_mean.tolist()])
print([round(v, 6) for v in bn.running_mean.tolist()])
print([round(v, 6) for v in bn.running_var.tolist()], bn.num_batches_tracked)
print([round(v, 6) for v in net.features[0].weight.grad.flatten()[:5].tolist()])
net.eval()
with torch.no_grad():
    e1 = net(x)
    e2 = net(x)
print(torch.equal(e1, e2), e1.requires_grad)
print([round(v, 5) for v in e1[0].tolist()])
print(net.features[5].running_var.shape, net.features[5].momentum)
for name, m in net.named_modules():
    if isinstance(m, (nn.BatchNorm2d, nn.Dropout)):
        print(name, type(m).__name__, m.training)
