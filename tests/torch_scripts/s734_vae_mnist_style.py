# VAE as in the pytorch/examples repo, fixed "images" and a fixed eps in place of randn_like
import torch
from torch import nn, optim
from torch.nn import functional as F


class VAE(nn.Module):
    def __init__(self):
        super(VAE, self).__init__()
        self.fc1 = nn.Linear(16, 12)
        self.fc21 = nn.Linear(12, 2)
        self.fc22 = nn.Linear(12, 2)
        self.fc3 = nn.Linear(2, 12)
        self.fc4 = nn.Linear(12, 16)

    def encode(self, x):
        h1 = F.relu(self.fc1(x))
        return self.fc21(h1), self.fc22(h1)

    def reparameterize(self, mu, logvar, eps):
        std = torch.exp(0.5 * logvar)
        return mu + eps * std

    def decode(self, z):
        h3 = F.relu(self.fc3(z))
        return torch.sigmoid(self.fc4(h3))

    def forward(self, x, eps):
        mu, logvar = self.encode(x.view(-1, 16))
        z = self.reparameterize(mu, logvar, eps)
        return self.decode(z), mu, logvar


def loss_function(recon_x, x, mu, logvar):
    BCE = F.binary_cross_entropy(recon_x, x.view(-1, 16), reduction='sum')
    KLD = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
    return BCE + KLD


model = VAE()
with torch.no_grad():
    for i, (name, p) in enumerate(model.named_parameters()):
        p.copy_(0.2 * torch.sin(torch.arange(p.numel(), dtype=p.dtype) * 0.9 + i).reshape(p.shape))
optimizer = optim.Adam(model.parameters(), lr=1e-2)
data = (torch.sin(torch.arange(8 * 16.0).view(8, 1, 4, 4)) + 1) / 2
eps = torch.cos(torch.arange(16.0)).view(8, 2) * 0.5
model.train()
for epoch in range(1, 6):
    optimizer.zero_grad()
    recon_batch, mu, logvar = model(data, eps)
    loss = loss_function(recon_batch, data, mu, logvar)
    loss.backward()
    train_loss = loss.item()
    optimizer.step()
    print('====> Epoch: {} Average loss: {:.4f}'.format(epoch, train_loss / len(data)))
model.eval()
with torch.no_grad():
    sample = model.decode(torch.zeros(3, 2))
    print(sample.view(3, 1, 4, 4).shape, sample.min().item() >= 0, round(sample[0, 0].item(), 5))
    recon, mu, logvar = model(data, torch.zeros(8, 2))
    comparison = torch.cat([data[:2], recon.view(8, 1, 4, 4)[:2]])
    print(comparison.shape, round(F.mse_loss(recon, data.view(-1, 16)).item(), 6))
