# NeRF's core in 1-D rays: Fourier positional encoding, an MLP giving density and color,
# alpha compositing with exclusive cumprod of transmittance, trained to match target pixels
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

rng = np.random.default_rng(441)
R, NS = 8, 16


def posenc(x, L=4):
    freqs = 2.0 ** torch.arange(L) * np.pi
    ang = x.unsqueeze(-1) * freqs
    return torch.cat([x.unsqueeze(-1), torch.sin(ang), torch.cos(ang)], -1).flatten(-2)


class TinyNeRF(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(3 * 9, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(),
                                 nn.Linear(32, 4))

    def forward(self, pts):
        out = self.net(posenc(pts))
        return F.softplus(out[..., 0]), torch.sigmoid(out[..., 1:])


def render(model, origins, dirs, near=0.0, far=2.0):
    t = torch.linspace(near, far, NS)
    pts = origins[:, None, :] + dirs[:, None, :] * t[None, :, None]
    sigma, rgb = model(pts)
    delta = torch.cat([t[1:] - t[:-1], torch.tensor([1e10])]).expand(sigma.shape)
    alpha = 1.0 - torch.exp(-sigma * delta)
    trans = torch.cumprod(torch.cat([torch.ones(alpha.shape[0], 1), 1.0 - alpha + 1e-10], -1), -1)[:, :-1]
    weights = alpha * trans
    return (weights[..., None] * rgb).sum(-2), (weights * t).sum(-1), weights


model = TinyNeRF()
with torch.no_grad():
    for p in model.parameters():
        p.copy_(torch.from_numpy(rng.normal(0, 0.25, tuple(p.shape))))
origins = torch.from_numpy(rng.uniform(-0.2, 0.2, (R, 3)))
dirs = F.normalize(torch.from_numpy(rng.standard_normal((R, 3))), dim=-1)
target = torch.from_numpy(rng.uniform(0, 1, (R, 3)))
opt = torch.optim.Adam(model.parameters(), lr=5e-3)
for it in range(8):
    rgb, depth, w = render(model, origins, dirs)
    loss = F.mse_loss(rgb, target)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if it % 2 == 1:
        psnr = -10.0 * torch.log10(loss)
        print(it, f"{loss.item():.6f}", f"{psnr.item():.4f}")
with torch.no_grad():
    rgb, depth, w = render(model, origins[:2], dirs[:2])
print(rgb.numpy().round(4), depth.numpy().round(4), w.sum(-1).numpy().round(6))
print(posenc(torch.tensor([0.25])).numpy().round(5))
