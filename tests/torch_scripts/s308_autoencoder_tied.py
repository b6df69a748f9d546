import torch
import torch.nn as nn
import torch.nn.functional as F


class TiedAE(nn.Module):
    """Autoencoder whose decoder reuses the encoder weight transposed."""

    def __init__(self, n, k):
        super().__init__()
        self.W = nn.Parameter(torch.linspace(-0.3, 0.3, n * k).view(k, n))
        self.b_enc = nn.Parameter(torch.zeros(k))
        self.b_dec = nn.Parameter(torch.zeros(n))

    def forward(self, x):
        z = torch.sigmoid(F.linear(x, self.W, self.b_enc))
        return F.linear(z, self.W.t(), self.b_dec), z


data = torch.stack([torch.roll(torch.tensor([1.0, 0.8, 0.0, 0.0, 0.0, 0.0]), i) for i in range(6)])
ae = TiedAE(6, 3)
opt = torch.optim.RMSprop(ae.parameters(), lr=0.01, alpha=0.9, momentum=0.1, centered=True)
for epoch in range(40):
    opt.zero_grad()
    recon, z = ae(data)
    sparsity = F.kl_div(z.mean(0).log(), torch.full((3,), 0.1), reduction="sum")
    loss = F.mse_loss(recon, data) + 1e-3 * sparsity
    loss.backward()
    opt.step()
    if epoch % 10 == 9:
        print(epoch, f"{loss.item():.6f}")
print(sorted(opt.state[ae.W].keys()))
print(ae.W.grad.shape, z.shape, round(z.mean().item(), 4))
ae.requires_grad_(False)
print([p.requires_grad for p in ae.parameters()])
with torch.no_grad():
    codes = ae(data)[1]
print(codes.argmax(1).tolist())
print(torch.nn.utils.parameters_to_vector(ae.parameters()).shape)
