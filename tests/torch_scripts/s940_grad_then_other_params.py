# alternating updates by autograd.grad: first w.r.t. generator params, then discriminator params
import torch
import torch.nn as nn

G = nn.Linear(1, 2)
D = nn.Linear(2, 1)
with torch.no_grad():
    G.weight.copy_(torch.tensor([[0.5], [-0.5]])); G.bias.copy_(torch.tensor([0.1, 0.2]))
    D.weight.copy_(torch.tensor([[1.0, 2.0]])); D.bias.zero_()
z = torch.tensor([[1.0], [2.0]])
real = torch.tensor([[1.0, 1.0], [0.0, 2.0]])
for step in range(3):
    fake = G(z)
    d_loss = nn.functional.softplus(-D(real)).mean() + nn.functional.softplus(D(fake.detach())).mean()
    gd = torch.autograd.grad(d_loss, list(D.parameters()))
    with torch.no_grad():
        for p, g in zip(D.parameters(), gd):
            p -= 0.1 * g
    g_loss = nn.functional.softplus(-D(G(z))).mean()
    gg = torch.autograd.grad(g_loss, G.parameters())
    with torch.no_grad():
        for p, g in zip(G.parameters(), gg):
            p -= 0.1 * g
    print(step, round(d_loss.item(), 6), round(g_loss.item(), 6))
print(G.weight.round(decimals=6), D.weight.round(decimals=6), D.weight.grad)
