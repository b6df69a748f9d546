# Tutorials print tensors directly (loss, outputs, grads): the grad_fn shown in each repr
# along a small training program with several layer kinds and losses
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

rng = np.random.default_rng(361)
x = torch.from_numpy(rng.standard_normal((3, 4)).round(2))
target = torch.tensor([0, 2, 1])


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 5)
        self.ln = nn.LayerNorm(5)
        self.fc2 = nn.Linear(5, 3)
        self.emb = nn.Embedding(4, 5)

    def forward(self, x, idx=None):
        h = F.leaky_relu(self.ln(self.fc1(x)), 0.1)
        if idx is not None:
            h = h + self.emb(idx)
        return self.fc2(h)


net = Net()
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.from_numpy(np.random.default_rng(i).normal(0, 0.5, tuple(p.shape)).round(2)))
out = net(x)
print(out)
loss = F.cross_entropy(out, target)
print(loss)
print(F.nll_loss(F.log_softmax(out, 1), target))
print(F.mse_loss(out, torch.zeros(3, 3)), F.l1_loss(out, torch.ones(3, 3)))
print(F.binary_cross_entropy_with_logits(out, torch.ones(3, 3) * 0.5))
print(F.smooth_l1_loss(out, torch.zeros(3, 3), beta=0.5), F.huber_loss(out, torch.ones(3, 3)))
print(F.kl_div(F.log_softmax(out, 1), F.softmax(torch.ones(3, 3), 1), reduction="batchmean"))
print(out.softmax(dim=1))
print(out.max(dim=1))
print(net(x, torch.tensor([0, 1, 3])))
loss.backward()
print(net.fc2.bias.grad)
print(net.ln.weight.grad)
print(net.emb.weight.grad)
h = net.fc1(x)
print(h.mean(), h.std(dim=0), h.sum(1, keepdim=True))
print(torch.sigmoid(h[:1]), torch.tanh(h[0, :2]), h[:, 1:3].exp())
print(h.T @ h, torch.cat([h, h], 0)[::2, 0])
print(h.view(15)[:4], h.flatten().unsqueeze(0)[:, :2], h.clamp(min=0)[0])
