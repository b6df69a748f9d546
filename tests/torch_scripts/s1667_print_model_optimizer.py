# Printing what a tutorial prints: the model, its named parameter shapes, parameter count,
# the optimizer, a scheduler's state_dict, tensors with grad_fn after a forward
import torch
import torch.nn as nn
import torch.nn.functional as F


class LeNet(nn.Module):
    def __init__(self, num_classes=10):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 6, kernel_size=5, padding=2)
        self.pool = nn.MaxPool2d(2, 2)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.features = nn.Sequential(self.conv1, nn.ReLU(inplace=True), self.pool,
                                      self.conv2, nn.ReLU(inplace=True), nn.AvgPool2d(2))
        self.classifier = nn.Sequential(
            nn.Flatten(), nn.Linear(16 * 5 * 5, 120), nn.ReLU(), nn.Dropout(0.5),
            nn.Linear(120, 84), nn.ReLU(), nn.Linear(84, num_classes))
        self.bn = nn.BatchNorm1d(num_classes, affine=False, track_running_stats=True)

    def forward(self, x):
        return self.bn(self.classifier(self.features(x)))


net = LeNet()
print(net)
for name, p in net.named_parameters():
    print(f"{name:25s} {str(tuple(p.shape)):18s} {p.requires_grad}")
print("total", sum(p.numel() for p in net.parameters()),
      "trainable", sum(p.numel() for p in net.parameters() if p.requires_grad))
print([n for n, _ in net.named_buffers()])
print([n for n, _ in net.named_children()])
opt = torch.optim.SGD([{"params": net.features.parameters()},
                       {"params": net.classifier.parameters(), "lr": 0.1}],
                      lr=0.01, momentum=0.9, weight_decay=5e-4)
print(opt)
sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=50)
print({k: v for k, v in sched.state_dict().items() if k != "_get_lr_called_within_step"})
net.eval()
with torch.no_grad():
    for p in net.parameters():
        p.fill_(0.01)
x = torch.ones(2, 1, 28, 28)
out = net(x)
print(out.shape, out.requires_grad)
net.train()
out = net(x)
print(out.grad_fn.name(), out.requires_grad)
print(F.relu(net.conv1(x)).grad_fn.name(), [type(f).__name__ for f, _ in net.conv1(x).grad_fn.next_functions])
print(net.conv1)
print(net.classifier[3], net.bn)
print(repr(nn.Linear(3, 4, bias=False)), nn.Conv1d(2, 4, 3, stride=2, dilation=2, groups=2))
