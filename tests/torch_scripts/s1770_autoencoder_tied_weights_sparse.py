# A sparse autoencoder with tied weights (decoder uses encoder.weight.t() via F.linear),
# a KL sparsity penalty on mean hidden activations toward rho, and an L2 weight decay term;
# weight tying checked through shared gradients
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

rng = np.random.default_rng(1171)
X = torch.from_numpy(rng.random((50, 8)))


class TiedSAE(nn.Module):
    def __init__(self, d=8, h=5):
        super().__init__()
        self.enc = nn.Linear(d, h)
        self.dec_bias = nn.Parameter(torch.zeros(d))

    def forward(self, x):
        hidden = torch.sigmoid(self.enc(x))
        return torch.sigmoid(F.linear(hidden, self.enc.weight.t(), self.dec_bias)), hidden


def kl_sparsity(rho, rho_hat):
    return (rho * torch.log(rho / rho_hat) + (1 - rho) * torch.log((1 - rho) / (1 - rho_hat))).sum()


model = TiedSAE()
with torch.no_grad():
    model.enc.weight.copy_(torch.from_numpy(rng.normal(0, 0.3, (5, 8))))
    model.enc.bias.zero_()
opt = torch.optim.Adam(model.parameters(), lr=0.02)
for it in range(20):
    opt.zero_grad()
    recon, hid = model(X)
    rho_hat = hid.mean(0).clamp(1e-6, 1 - 1e-6)
    loss = F.mse_loss(recon, X) + 0.1 * kl_sparsity(torch.tensor(0.1), rho_hat) + 1e-3 * model.enc.weight.pow(2).sum()
    loss.backward()
    opt.step()
    if it % 5 == 4:
        print(it, f"{loss.item():.6f}", rho_hat.detach().numpy().round(3))
print(len(list(model.parameters())), model.enc.weight.grad.shape)
print(model.dec_bias.detach().numpy().round(4))
