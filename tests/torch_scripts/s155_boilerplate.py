import random
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

def set_seed(seed=42):
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    torch.cuda.manual_seed_all(seed)
    torch.backends.cudnn.deterministic = True
    torch.backends.cudnn.benchmark = False

set_seed()
torch.use_deterministic_algorithms(True)
print(torch.get_num_threads() >= 1, torch.are_deterministic_algorithms_enabled(), torch.cuda.is_available(), torch.backends.mps.is_available())
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
print(device, device.type, str(device), torch.device("cpu:0"), torch.cuda.device_count())

class CNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 4, 3, padding=1)
        self.bn1 = nn.BatchNorm2d(4)
        self.conv2 = nn.Conv2d(4, 8, 3, padding=1)
        self.drop = nn.Dropout2d(0.25)
        self.fc = nn.Linear(8 * 2 * 2, 3)
    def forward(self, x):
        x = F.max_pool2d(F.relu(self.bn1(self.conv1(x))), 2)
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        x = self.drop(x)
        x = torch.flatten(x, 1)
        return F.log_softmax(self.fc(x), dim=1)

model = CNN().to(device)
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=p.dtype) * 0.37 + i).reshape(p.shape) * 0.3)
print(model.conv1.weight.device, next(model.parameters()).dtype, model.training)
X = torch.sin(torch.arange(6 * 64, dtype=torch.float64)).reshape(6, 1, 8, 8).to(device)
y = torch.tensor([0, 1, 2, 0, 1, 2], device=device)
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
model.eval()
with torch.no_grad():
    print(F.nll_loss(model(X), y).item(), model(X).argmax(1))
for epoch in range(4):
    model.train()
    model.drop.p = 0.0
    opt.zero_grad()
    loss = F.nll_loss(model(X), y)
    loss.backward()
    opt.step()
    print(epoch, f"{loss.item():.8f}", [round(v, 10) for v in model.bn1.running_mean.tolist()[:2]], int(model.bn1.num_batches_tracked))
model.eval()
with torch.no_grad():
    out = model(X)
    acc = (out.argmax(dim=1) == y).float().mean().item()
print(f"{acc:.4f}", out.exp().sum(1))
print(torch.__version__.split(".")[0] >= "2" or True, isinstance(torch.__version__, str))
compiled = torch.compile(model)
with torch.no_grad():
    print(torch.allclose(compiled(X), model(X)))
x_np = X.cpu().numpy()
print(type(x_np).__name__, x_np.shape, torch.from_numpy(x_np).shape, model(X).detach().cpu().numpy().shape)
torch.use_deterministic_algorithms(False)
print(torch.are_deterministic_algorithms_enabled())
