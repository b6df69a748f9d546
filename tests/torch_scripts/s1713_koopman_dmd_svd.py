# Dynamic mode decomposition of snapshots with torch.linalg.svd (truncated), the reduced
# operator's eigenvalues via torch.linalg.eig (complex), reconstruction error; then a
# learned linear Koopman operator on lifted features trained with Adam
import numpy as np
import torch
import torch.nn as nn

t = torch.linspace(0, 4, 41)
x = torch.linspace(-1, 1, 20)
data = (torch.outer(torch.exp(-0.3 * t) * torch.cos(2 * t), torch.sin(np.pi * x))
        + 0.5 * torch.outer(torch.exp(-0.1 * t) * torch.sin(3 * t), torch.cos(np.pi * x / 2))).T
X1, X2 = data[:, :-1], data[:, 1:]
U, S, Vh = torch.linalg.svd(X1, full_matrices=False)
r = 2  # (the snapshots have rank 2: further singular vectors are arbitrary)
Ur, Sr, Vr = U[:, :r], S[:r], Vh[:r].T
Atilde = Ur.T @ X2 @ Vr / Sr
eigvals = torch.linalg.eigvals(Atilde)
mags = eigvals.abs()
order = torch.argsort(mags, descending=True)
print(S[:3].numpy().round(5))
print(mags[order].numpy().round(6), (eigvals[order].angle().abs() / (t[1] - t[0])).numpy().round(4))
pred = Ur @ Atilde @ Ur.T @ X1
print("one-step rel err", round(((pred - X2).norm() / X2.norm()).item(), 8))


class Koopman(nn.Module):
    def __init__(self, n=20, k=6):
        super().__init__()
        self.enc = nn.Linear(n, k, bias=False)
        self.K = nn.Linear(k, k, bias=False)
        self.dec = nn.Linear(k, n, bias=False)
        g = np.random.default_rng(611)
        with torch.no_grad():
            for p in self.parameters():
                p.copy_(torch.from_numpy(g.normal(0, 0.3, tuple(p.shape))))

    def forward(self, x):
        z = self.enc(x)
        return self.dec(self.K(z)), self.dec(z)


model = Koopman()
opt = torch.optim.Adam(model.parameters(), lr=0.01)
A, B = X1.T, X2.T
for it in range(15):
    nxt, rec = model(A)
    loss = nn.functional.mse_loss(nxt, B) + nn.functional.mse_loss(rec, A)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if it % 5 == 4:
        print(it, f"{loss.item():.7f}")
ev = torch.linalg.eigvals(model.K.weight.detach())
print(ev.abs().sort(descending=True).values.numpy().round(5))
