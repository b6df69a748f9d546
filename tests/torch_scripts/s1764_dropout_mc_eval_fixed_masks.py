# Monte Carlo dropout written with explicit masks (NumPy Bernoulli draws scaled by 1/(1-p)),
# as some papers implement it to control randomness: predictive mean and variance over
# passes, plus the module-level Dropout in eval mode being the identity
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

rng = np.random.default_rng(1111)
p = 0.3


class MCNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.l1 = nn.Linear(3, 16)
        self.l2 = nn.Linear(16, 16)
        self.l3 = nn.Linear(16, 1)
        self.drop = nn.Dropout(p)

    def forward(self, x, masks=None):
        h = F.relu(self.l1(x))
        h = h * masks[0] if masks is not None else self.drop(h)
        h = F.relu(self.l2(h))
        h = h * masks[1] if masks is not None else self.drop(h)
        return self.l3(h)


def draw_masks(n):
    return [torch.from_numpy((rng.random((n, 16)) > p) / (1 - p)) for _ in range(2)]


model = MCNet()
with torch.no_grad():
    for q in model.parameters():
        q.copy_(torch.from_numpy(rng.normal(0, 0.4, tuple(q.shape))))
X = torch.from_numpy(rng.uniform(-1, 1, (40, 3)))
y = (X ** 2).sum(1, keepdim=True)
opt = torch.optim.Adam(model.parameters(), lr=0.01)
for it in range(30):
    opt.zero_grad()
    loss = F.mse_loss(model(X, draw_masks(40)), y)
    loss.backward()
    opt.step()
    if it % 10 == 9:
        print(it, f"{loss.item():.6f}")
Xq = torch.tensor([[0.0, 0.0, 0.0], [0.9, -0.9, 0.9], [2.0, 2.0, 2.0]])
with torch.no_grad():
    samples = torch.stack([model(Xq, draw_masks(3)) for _ in range(20)])
print(samples.mean(0).view(-1).numpy().round(4), samples.std(0).view(-1).numpy().round(4))
model.eval()
with torch.no_grad():
    print(torch.equal(model(Xq), model.l3(F.relu(model.l2(F.relu(model.l1(Xq)))))), model.drop)
