# Learning to learn by gradient descent in miniature: a coordinatewise LSTMCell optimizer
# proposing updates for a quadratic's parameters, unrolled for a few steps with
# autograd.grad(create_graph=True) of the optimizee's loss, meta-trained with Adam
import numpy as np
import torch
import torch.nn as nn

rng = np.random.default_rng(931)
D = 5


class LSTMOptimizer(nn.Module):
    def __init__(self, hidden=8):
        super().__init__()
        self.cell = nn.LSTMCell(1, hidden)
        self.out = nn.Linear(hidden, 1)
        self.hidden = hidden

    def forward(self, grad, state):
        h, c = self.cell(grad.unsqueeze(1), state)
        return self.out(h).squeeze(1) * 0.1, (h, c)


def quadratic():
    W = torch.from_numpy(rng.standard_normal((D, D)))
    b = torch.from_numpy(rng.standard_normal(D))
    return lambda th: ((W @ th - b) ** 2).sum()


opt_net = LSTMOptimizer()
with torch.no_grad():
    for p in opt_net.parameters():
        p.copy_(torch.from_numpy(rng.normal(0, 0.3, tuple(p.shape))))
meta_opt = torch.optim.Adam(opt_net.parameters(), lr=0.01)
for meta_it in range(5):
    f = quadratic()
    theta = torch.zeros(D, requires_grad=True)
    state = (torch.zeros(D, opt_net.hidden), torch.zeros(D, opt_net.hidden))
    meta_loss = 0.0
    for t in range(4):
        loss = f(theta)
        (g,) = torch.autograd.grad(loss, theta, create_graph=True)
        update, state = opt_net(g.detach(), state)
        theta = theta + update
        meta_loss = meta_loss + f(theta)
    meta_opt.zero_grad()
    meta_loss.backward()
    meta_opt.step()
    print(meta_it, f"{meta_loss.item():.5f}", f"{opt_net.out.weight.grad.norm().item():.6f}")
print(theta.detach().numpy().round(5))
print(opt_net.cell.bias_hh.grad[:4].numpy().round(6))
