# Spatial transformer network (the PyTorch tutorial's STN, shrunk): a localization net
# regressing a 2x3 affine theta initialized to identity, affine_grid + grid_sample, classifier
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

rng = np.random.default_rng(401)
X = torch.from_numpy(rng.random((6, 1, 8, 8)))
Y = torch.from_numpy(rng.integers(0, 3, 6))


class STN(nn.Module):
    def __init__(self):
        super().__init__()
        self.localization = nn.Sequential(nn.Conv2d(1, 4, 3), nn.MaxPool2d(2, stride=2), nn.ReLU(True))
        self.fc_loc = nn.Sequential(nn.Linear(4 * 3 * 3, 8), nn.ReLU(True), nn.Linear(8, 3 * 2))
        self.fc_loc[2].weight.data.zero_()
        self.fc_loc[2].bias.data.copy_(torch.tensor([1, 0, 0, 0, 1, 0], dtype=torch.float64))
        self.cls = nn.Sequential(nn.Conv2d(1, 3, 3), nn.ReLU(), nn.AdaptiveMaxPool2d(1), nn.Flatten())

    def stn(self, x):
        xs = self.localization(x).view(-1, 4 * 3 * 3)
        theta = self.fc_loc(xs).view(-1, 2, 3)
        grid = F.affine_grid(theta, x.size(), align_corners=False)
        return F.grid_sample(x, grid, align_corners=False), theta

    def forward(self, x):
        x, theta = self.stn(x)
        return F.log_softmax(self.cls(x), dim=1), theta


model = STN()
with torch.no_grad():
    for n, p in model.named_parameters():
        if not n.startswith("fc_loc.2"):
            p.copy_(torch.from_numpy(rng.normal(0, 0.4, tuple(p.shape))))
with torch.no_grad():
    warped, theta = model.stn(X)
print("identity warp", torch.allclose(warped, X, atol=1e-12), theta[0])
opt = torch.optim.SGD(model.parameters(), lr=0.05)
for it in range(6):
    opt.zero_grad()
    out, theta = model(X)
    loss = F.nll_loss(out, Y)
    loss.backward()
    opt.step()
    print(it, f"{loss.item():.6f}", theta[0].detach().view(-1).numpy().round(5))
print(model.fc_loc[2].weight.grad.abs().sum().item() > 0)
grid = F.affine_grid(torch.tensor([[[0.8, 0.2, 0.1], [-0.1, 0.9, 0.0]]]), (1, 1, 3, 3), align_corners=True)
print(grid[0, 1])
img = torch.arange(16.0).view(1, 1, 4, 4).requires_grad_(True)
s = F.grid_sample(img, grid, mode="bilinear", padding_mode="border", align_corners=True)
s.sum().backward()
print(s[0, 0], img.grad[0, 0])
