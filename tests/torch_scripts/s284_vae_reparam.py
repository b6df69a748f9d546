import torch
from torch import nn
from torch.nn import functional as F


class VAE(nn.Module):
    def __init__(self, d=6, h=5, z=2):
        super().__init__()
        self.fc1 = nn.Linear(d, h)
        self.fc21 = nn.Linear(h, z)
        self.fc22 = nn.Linear(h, z)
        self.fc3 = nn.Linear(z, h)
        self.fc4 = nn.Linear(h, d)

    def encode(self, x):
        h1 = F.relu(self.fc1(x))
        return self.fc21(h1), self.fc22(h1)

    def reparameterize(self, mu, logvar, eps):
        std = torch.exp(0.5 * logvar)
        return mu + eps * std

    def decode(self, z):
        return torch.sigmoid(self.fc4(F.relu(self.fc3(z))))

    def forward(self, x, eps):
        mu, logvar = self.encode(x)
        return self.decode(self.reparameterize(mu, logvar, eps)), mu, logvar


def loss_function(recon_x, x, mu, logvar):
    BCE = F.binary_cross_entropy(recon_x, x, reduction="sum")
    KLD = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
    return BCE + KLD, BCE, KLD


model = VAE()
for i, p in enumerate(model.parameters()):
    p.data = torch.linspace(-0.4, 0.4, p.numel()).reshape(p.shape) * (-1) ** i
x = (torch.arange(24.).reshape(4, 6) % 5) / 4
eps = torch.tensor([[0.1, -0.2], [0.3, 0.0], [-1.0, 0.5], [0.2, 0.2]])
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for epoch in range(4):
    opt.zero_grad()
    recon, mu, logvar = model(x, eps)
    loss, bce, kld = loss_function(recon, x, mu, logvar)
    loss.backward()
    opt.step()
    print(epoch, f"{loss.item():.5f} {bce.item():.5f} {kld.item():.5f}")
print(recon.shape, type(recon.grad_fn).__name__, type(kld.grad_fn).__name__)
# the same with torch.distributions
q = torch.distributions.Normal(mu, torch.exp(0.5 * logvar))
p = torch.distributions.Normal(torch.zeros_like(mu), torch.ones_like(mu))
kl = torch.distributions.kl_divergence(q, p).sum()
print(torch.allclose(kl, kld), q.has_rsample, q.batch_shape, q.event_shape)
ind = torch.distributions.Independent(q, 1)
print(ind.batch_shape, ind.event_shape, ind.log_prob(mu).shape)
torch.manual_seed(0)
z = q.rsample((3,))
print(z.shape, z.requires_grad, type(z.grad_fn).__name__)
print(torch.distributions.kl_divergence(ind, torch.distributions.Independent(p, 1)).shape)
