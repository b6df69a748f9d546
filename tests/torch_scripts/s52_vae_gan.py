import torch
import torch.nn as nn
import torch.nn.functional as F


class VAE(nn.Module):
    def __init__(self):
        super(VAE, self).__init__()
        self.fc1 = nn.Linear(12, 8)
        self.fc21 = nn.Linear(8, 2)
        self.fc22 = nn.Linear(8, 2)
        self.fc3 = nn.Linear(2, 8)
        self.fc4 = nn.Linear(8, 12)

    def encode(self, x):
        h1 = F.relu(self.fc1(x))
        return self.fc21(h1), self.fc22(h1)

    def reparameterize(self, mu, logvar, eps=None):
        std = torch.exp(0.5 * logvar)
        if eps is None:
            eps = torch.randn_like(std)
        return mu + eps * std

    def decode(self, z):
        h3 = F.relu(self.fc3(z))
        return torch.sigmoid(self.fc4(h3))

    def forward(self, x, eps=None):
        mu, logvar = self.encode(x.view(-1, 12))
        z = self.reparameterize(mu, logvar, eps)
        return self.decode(z), mu, logvar


def loss_function(recon_x, x, mu, logvar):
    BCE = F.binary_cross_entropy(recon_x, x.view(-1, 12), reduction='sum')
    KLD = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
    return BCE + KLD


def det(m, s=0.3):
    with torch.no_grad():
        for i, p in enumerate(m.parameters()):
            p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float64) * 0.61 + i).reshape(p.shape) * s)


model = VAE()
det(model)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
data = (torch.sin(torch.arange(48.).reshape(4, 12)) > 0).double()
eps = torch.cos(torch.arange(8.)).reshape(4, 2) * 0.5
for epoch in range(5):
    model.train()
    optimizer.zero_grad()
    recon_batch, mu, logvar = model(data, eps)
    loss = loss_function(recon_batch, data, mu, logvar)
    loss.backward()
    optimizer.step()
    print('Epoch: {} Average loss: {:.4f}'.format(epoch, loss.item() / len(data)))
model.eval()
with torch.no_grad():
    sample = model.decode(torch.zeros(2, 2))
    print(sample.shape, sample[0].numpy().round(4))
torch.manual_seed(0)
recon, mu, logvar = model(data)
print(recon.shape, mu.shape, logvar.shape, recon.requires_grad)

nz = 3
netG = nn.Sequential(nn.Linear(nz, 8), nn.LeakyReLU(0.2), nn.Linear(8, 4), nn.Tanh())
netD = nn.Sequential(nn.Linear(4, 8), nn.LeakyReLU(0.2, inplace=True), nn.Linear(8, 1), nn.Sigmoid())
det(netG, 0.5)
det(netD, 0.4)
criterion = nn.BCELoss()
real_label, fake_label = 1., 0.
optimizerD = torch.optim.Adam(netD.parameters(), lr=0.01, betas=(0.5, 0.999))
optimizerG = torch.optim.Adam(netG.parameters(), lr=0.01, betas=(0.5, 0.999))
real = torch.cos(torch.arange(24.).reshape(6, 4))
noise = torch.sin(torch.arange(18.).reshape(6, nz) * 1.3)
G_losses, D_losses = [], []
for it in range(4):
    netD.zero_grad()
    b_size = real.size(0)
    label = torch.full((b_size,), real_label)
    output = netD(real).view(-1)
    errD_real = criterion(output, label)
    errD_real.backward()
    D_x = output.mean().item()
    fake = netG(noise)
    label.fill_(fake_label)
    output = netD(fake.detach()).view(-1)
    errD_fake = criterion(output, label)
    errD_fake.backward()
    D_G_z1 = output.mean().item()
    errD = errD_real + errD_fake
    optimizerD.step()
    netG.zero_grad()
    label.fill_(real_label)
    output = netD(fake).view(-1)
    errG = criterion(output, label)
    errG.backward()
    D_G_z2 = output.mean().item()
    optimizerG.step()
    print('[%d] Loss_D: %.4f Loss_G: %.4f D(x): %.4f D(G(z)): %.4f / %.4f' % (it, errD.item(), errG.item(), D_x, D_G_z1, D_G_z2))
    G_losses.append(errG.item())
    D_losses.append(errD.item())
print(len(G_losses), fake.requires_grad, fake.detach().requires_grad, label.dtype)
