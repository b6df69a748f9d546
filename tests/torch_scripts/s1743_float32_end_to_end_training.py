# A program that works in float32 throughout (as most real code does): float32 data from
# NumPy, model.float(), float32 targets, losses and metrics printed to 4 digits, the
# optimizer's state dtypes, and .double() for a final high-precision evaluation
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

rng = np.random.default_rng(901)
X = rng.standard_normal((64, 6)).astype(np.float32)
Y = (X[:, 0] * X[:, 1] > 0).astype(np.int64)
Xt, Yt = torch.from_numpy(X), torch.from_numpy(Y)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(1, 4, 3, padding=1)
        self.lstm = nn.LSTM(4, 5, batch_first=True)
        self.head = nn.Linear(5, 2)

    def forward(self, x):
        h = F.relu(self.conv(x.unsqueeze(1))).transpose(1, 2)
        out, _ = self.lstm(h)
        return self.head(out[:, -1])


net = Net().float()
with torch.no_grad():
    for p in net.parameters():
        p.copy_(torch.from_numpy(rng.normal(0, 0.4, tuple(p.shape)).astype(np.float32)))
print({str(p.dtype) for p in net.parameters()}, Xt.dtype)
opt = torch.optim.Adam(net.parameters(), lr=0.01)
for epoch in range(5):
    for xb, yb in zip(Xt.split(16), Yt.split(16)):
        opt.zero_grad()
        loss = F.cross_entropy(net(xb), yb)
        loss.backward()
        opt.step()
    with torch.no_grad():
        acc = (net(Xt).argmax(1) == Yt).float().mean()
    print(epoch, f"{loss.item():.4f}", f"{acc.item():.4f}", loss.dtype)
st = opt.state[net.head.weight]
print(st["exp_avg"].dtype, st["step"].dtype, net.head.weight.grad.dtype)
net64 = net.double()
with torch.no_grad():
    out = F.softmax(net64(Xt[:3].double()), 1)
print(out.dtype, out.numpy().round(4))
print(torch.tensor([0.1, 0.2], dtype=torch.float32).sum().item() == np.float32(0.1) + np.float32(0.2))
