import torch
from torch import nn


class AutoEncoder(nn.Module):
    def __init__(self, d=8, h=3):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(d, 5), nn.ReLU(True), nn.Linear(5, h))
        self.decoder = nn.Sequential(nn.Linear(h, 5), nn.ReLU(inplace=True), nn.Linear(5, d), nn.Sigmoid())

    def forward(self, x):
        z = self.encoder(x)
        return self.decoder(z), z


torch.manual_seed(0)
ae = AutoEncoder()
for m in ae.modules():
    if isinstance(m, nn.Linear):
        with torch.no_grad():
            m.weight.copy_(torch.linspace(-0.4, 0.4, m.weight.numel()).reshape(m.weight.shape).flip(1) * (1 + m.in_features / 10))
            m.bias.fill_(0.05)
print(ae)
base = torch.linspace(0, 1, 8)
data = torch.stack([(base * k).remainder(1.0) for k in range(1, 11)])
crit = nn.MSELoss()
opt = torch.optim.RMSprop(ae.parameters(), lr=0.01, alpha=0.9)
losses = []
for epoch in range(60):
    opt.zero_grad()
    recon, z = ae(data)
    loss = crit(recon, data)
    loss.backward()
    opt.step()
    losses.append(loss.item())
print([round(l, 5) for l in losses[::15]], losses[-1] < losses[0])
print(z.shape, recon.min().item() >= 0, recon.max().item() <= 1)
with torch.no_grad():
    r, z = ae(data[:2])
print(r.round(decimals=3))
print(nn.functional.mse_loss(r, data[:2], reduction="none").mean(dim=1))
