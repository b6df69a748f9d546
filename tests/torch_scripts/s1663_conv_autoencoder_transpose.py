# Convolutional autoencoder: Conv2d stride 2 encoder, ConvTranspose2d decoder with
# output_padding, Sigmoid output, BCELoss, ReduceLROnPlateau on the epoch loss
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

rng = np.random.default_rng(141)
imgs = np.zeros((24, 1, 8, 8))
for i in range(24):
    r, c = rng.integers(0, 5, 2)
    imgs[i, 0, r:r + 3, c:c + 3] = 1.0


class AE(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(
            nn.Conv2d(1, 4, 3, stride=2, padding=1), nn.ReLU(),
            nn.Conv2d(4, 8, 3, stride=2, padding=1), nn.ReLU())
        self.decoder = nn.Sequential(
            nn.ConvTranspose2d(8, 4, 3, stride=2, padding=1, output_padding=1), nn.ReLU(),
            nn.ConvTranspose2d(4, 1, 3, stride=2, padding=1, output_padding=1), nn.Sigmoid())

    def forward(self, x):
        z = self.encoder(x)
        return self.decoder(z), z


ae = AE()
for i, m in enumerate(ae.modules()):
    if isinstance(m, (nn.Conv2d, nn.ConvTranspose2d)):
        with torch.no_grad():
            m.weight.copy_(0.3 * torch.cos(torch.arange(m.weight.numel()) * (0.5 + 0.1 * i))
                           .view_as(m.weight))
            m.bias.fill_(0.01 * i)
loader = DataLoader(TensorDataset(torch.from_numpy(imgs)), batch_size=8)
opt = torch.optim.Adam(ae.parameters(), lr=0.01)
sched = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, mode="min", factor=0.5, patience=1)
crit = nn.BCELoss()
for epoch in range(6):
    tot = 0.0
    for (xb,) in loader:
        recon, z = ae(xb)
        loss = crit(recon, xb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        tot += loss.item()
    sched.step(tot)
    print(epoch, f"{tot / len(loader):.6f}", opt.param_groups[0]["lr"])
print(z.shape, recon.shape)
ae.eval()
with torch.no_grad():
    r, z = ae(torch.from_numpy(imgs[:2]))
print(r[0, 0, 2:5, 2:5].numpy().round(3))
print(z.abs().mean().item().__round__(6))
print(sched.state_dict()["best"].__round__(6), sched.num_bad_epochs)
