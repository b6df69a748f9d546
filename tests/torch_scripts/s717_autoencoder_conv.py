import torch
import torch.nn as nn


class AE(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv2d(1, 4, 3, stride=2, padding=1), nn.ReLU(), nn.Conv2d(4, 8, 3, stride=2, padding=1), nn.ReLU(), nn.Flatten(), nn.Linear(8 * 2 * 2, 3))
        self.dec = nn.Sequential(nn.Linear(3, 8 * 2 * 2), nn.Unflatten(1, (8, 2, 2)), nn.ConvTranspose2d(8, 4, 4, stride=2, padding=1), nn.ReLU(), nn.ConvTranspose2d(4, 1, 4, stride=2, padding=1), nn.Sigmoid())

    def forward(self, x):
        z = self.enc(x)
        return self.dec(z), z


torch.manual_seed(0)
ae = AE()
with torch.no_grad():
    for i, p in enumerate(ae.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=p.dtype) * 0.7 + i).reshape(p.shape) * 0.3)
imgs = (torch.arange(2 * 64, dtype=torch.float64).reshape(2, 1, 8, 8) % 7) / 7
opt = torch.optim.RMSprop(ae.parameters(), lr=0.01, alpha=0.9)
for step in range(3):
    opt.zero_grad()
    rec, z = ae(imgs)
    loss = nn.functional.binary_cross_entropy(rec, imgs) + 1e-3 * z.pow(2).sum()
    loss.backward()
    opt.step()
    print(step, rec.shape, z.shape, round(loss.item(), 6))
print(sum(p.numel() for p in ae.parameters()), [tuple(m.weight.shape) for m in ae.modules() if isinstance(m, nn.ConvTranspose2d)])
print(ae.enc[0].weight.grad.abs().sum().round(decimals=5))
