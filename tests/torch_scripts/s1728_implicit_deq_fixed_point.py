# A deep equilibrium layer: forward by fixed-point iteration under no_grad, one attached
# step to re-enter the graph, and the implicit backward via a tensor hook solving
# g = grad + J^T g by iteration with autograd.grad vector-Jacobian products
import numpy as np
import torch
import torch.nn as nn

rng = np.random.default_rng(751)


class DEQ(nn.Module):
    def __init__(self, d=6):
        super().__init__()
        self.W = nn.Linear(d, d, bias=False)
        self.U = nn.Linear(d, d)
        with torch.no_grad():
            w = rng.normal(0, 1, (d, d))
            self.W.weight.copy_(torch.from_numpy(0.5 * w / np.linalg.norm(w, 2)))
            self.U.weight.copy_(torch.from_numpy(rng.normal(0, 0.5, (d, d))))
            self.U.bias.zero_()
        self.iters = []

    def f(self, z, x):
        return torch.tanh(self.W(z) + self.U(x))

    def forward(self, x):
        with torch.no_grad():
            z = torch.zeros_like(x)
            for k in range(100):
                z_new = self.f(z, x)
                if (z_new - z).norm() < 1e-12:
                    break
                z = z_new
        self.iters.append(k)
        z = self.f(z, x)
        z0 = z.clone().detach().requires_grad_()
        f0 = self.f(z0, x)

        def backward_hook(grad):
            g = grad
            for _ in range(100):
                g_new = torch.autograd.grad(f0, z0, g, retain_graph=True)[0] + grad
                if (g_new - g).norm() < 1e-12:
                    break
                g = g_new
            return g

        z.register_hook(backward_hook)
        return z


deq = DEQ()
head = nn.Linear(6, 1)
with torch.no_grad():
    head.weight.copy_(torch.from_numpy(rng.normal(0, 0.5, (1, 6))))
    head.bias.zero_()
X = torch.from_numpy(rng.standard_normal((16, 6)))
y = torch.from_numpy(rng.standard_normal((16, 1)))
opt = torch.optim.Adam(list(deq.parameters()) + list(head.parameters()), lr=0.01)
for it in range(6):
    opt.zero_grad()
    loss = nn.functional.mse_loss(head(deq(X)), y)
    loss.backward()
    opt.step()
    print(it, f"{loss.item():.6f}", deq.iters[-1] > 5)
x1 = X[:1].clone().requires_grad_(True)
z = deq(x1)
(gx,) = torch.autograd.grad(z.sum(), x1)
eps = 1e-6
num = (deq(x1.detach() + eps * torch.eye(6)[0:1]).sum() - deq(x1.detach() - eps * torch.eye(6)[0:1]).sum()) / (2 * eps)
print(gx.numpy().round(5), abs(num.item() - gx[0, 0].item()) < 1e-6)
