# a two-layer MLP's gradients computed by hand and compared with autograd (micrograd-style check)
import torch

X = torch.tensor([[0.5, -1.0, 2.0], [1.0, 0.0, -0.5]])
y = torch.tensor([[1.0], [0.0]])
W1 = torch.tensor([[0.1, -0.2], [0.3, 0.4], [-0.5, 0.6]], requires_grad=True)
b1 = torch.tensor([0.01, -0.02], requires_grad=True)
W2 = torch.tensor([[0.7], [-0.8]], requires_grad=True)
h_pre = X @ W1 + b1
h = torch.tanh(h_pre)
out = torch.sigmoid(h @ W2)
loss = ((out - y) ** 2).mean()
loss.backward()
d_out = 2 * (out - y) / y.numel()
d_z = d_out * out * (1 - out)
gW2 = h.T @ d_z
d_h = d_z @ W2.T
d_hpre = d_h * (1 - h ** 2)
gW1 = X.T @ d_hpre
gb1 = d_hpre.sum(0)
for name, manual, auto in [("W1", gW1, W1.grad), ("b1", gb1, b1.grad), ("W2", gW2, W2.grad)]:
    print(name, torch.allclose(manual, auto), (manual - auto).abs().max().item() < 1e-12, auto.round(decimals=6))
print(loss.item().__round__(8))
