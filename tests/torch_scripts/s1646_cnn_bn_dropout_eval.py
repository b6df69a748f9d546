# Small CNN on random images: Conv2d/BatchNorm2d/ReLU/MaxPool/Dropout, trained in train mode
# with dropout p=0 for determinism, running stats checked, eval accuracy under no_grad
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

rng = np.random.default_rng(2)
imgs = rng.standard_normal((40, 1, 8, 8))
labels = (imgs[:, 0, :4].mean(axis=(1, 2)) > imgs[:, 0, 4:].mean(axis=(1, 2))).astype(np.int64)
imgs[labels == 1, 0, :2] += 1.0


class ConvNet(nn.Module):
    def __init__(self, p=0.0):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 4, 3, padding=1)
        self.bn1 = nn.BatchNorm2d(4)
        self.conv2 = nn.Conv2d(4, 6, 3, padding=1)
        self.bn2 = nn.BatchNorm2d(6)
        self.drop = nn.Dropout(p)
        self.fc = nn.Linear(6 * 2 * 2, 2)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.bn1(self.conv1(x))), 2)
        x = F.max_pool2d(F.relu(self.bn2(self.conv2(x))), 2)
        return self.fc(self.drop(torch.flatten(x, 1)))


def init(m):
    if isinstance(m, (nn.Conv2d, nn.Linear)):
        w = np.sin(np.arange(m.weight.numel()) * 1.3).reshape(tuple(m.weight.shape))
        with torch.no_grad():
            m.weight.copy_(torch.from_numpy(w) * 0.5)
        nn.init.zeros_(m.bias)


net = ConvNet()
net.apply(init)
ds = TensorDataset(torch.from_numpy(imgs), torch.from_numpy(labels))
train_dl = DataLoader(ds, batch_size=10, shuffle=False)
opt = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9, nesterov=True)
for epoch in range(3):
    net.train()
    run = 0.0
    for xb, yb in train_dl:
        opt.zero_grad()
        loss = F.cross_entropy(net(xb), yb)
        loss.backward()
        opt.step()
        run += loss.item() * xb.size(0)
    print(f"epoch {epoch}: {run / len(ds):.5f}")

print("running_mean", net.bn1.running_mean.numpy().round(4))
print("running_var", net.bn2.running_var.numpy().round(4))
print("batches tracked", net.bn1.num_batches_tracked.item())
net.eval()
correct = 0
with torch.no_grad():
    for xb, yb in DataLoader(ds, batch_size=16):
        correct += (net(xb).argmax(1) == yb).sum().item()
print("accuracy", correct / len(ds))
with torch.no_grad():
    out1 = net(ds[0][0].unsqueeze(0))
    out2 = net(torch.from_numpy(imgs[:3]))[:1]
print("eval batch-independent", torch.allclose(out1, out2), out1.numpy().round(5))
