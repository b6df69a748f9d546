# Denoising convolutional autoencoder: Conv2d/ConvTranspose2d, fixed "noise", MSE, PSNR in dB,
# state_dict saved to BytesIO and reloaded into a fresh model
import io
import math
import torch
import torch.nn as nn


class DAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv2d(1, 4, 3, stride=2, padding=1), nn.ReLU(),
                                     nn.Conv2d(4, 8, 3, stride=2, padding=1), nn.ReLU())
        self.decoder = nn.Sequential(nn.ConvTranspose2d(8, 4, 3, stride=2, padding=1, output_padding=1), nn.ReLU(),
                                     nn.ConvTranspose2d(4, 1, 3, stride=2, padding=1, output_padding=1), nn.Sigmoid())

    def forward(self, x):
        return self.decoder(self.encoder(x))


model = DAE()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(0.2 * torch.sin(torch.arange(p.numel(), dtype=p.dtype) * 0.67 + i).view_as(p))
yy, xx = torch.meshgrid(torch.linspace(-1, 1, 8), torch.linspace(-1, 1, 8), indexing="ij")
clean = torch.stack([(xx ** 2 + yy ** 2 < 0.5).double(), (xx.abs() < 0.3).double()]).unsqueeze(1)
noisy = (clean + 0.2 * torch.sin(13 * xx + 7 * yy)).clamp(0, 1)
print(clean.shape, model.encoder(noisy).shape, model(noisy).shape)
opt = torch.optim.Adam(model.parameters(), lr=0.01)
crit = nn.MSELoss()
for epoch in range(20):
    opt.zero_grad()
    loss = crit(model(noisy), clean)
    loss.backward()
    opt.step()
    if epoch % 5 == 4:
        print(f"epoch {epoch + 1} mse {loss.item():.6f} psnr {10 * math.log10(1 / loss.item()):.3f} dB")
buf = io.BytesIO()
torch.save(model.state_dict(), buf)
buf.seek(0)
fresh = DAE()
print(fresh.load_state_dict(torch.load(buf)))
with torch.no_grad():
    print(torch.equal(fresh(noisy), model(noisy)), list(model.state_dict())[:3])
