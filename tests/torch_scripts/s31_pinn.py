import torch
import torch.nn as nn
import numpy as np
torch.manual_seed(0)
net = nn.Sequential(nn.Linear(1, 8), nn.Tanh(), nn.Linear(8, 1))
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.linspace(-0.5, 0.5, p.numel()).reshape(p.shape) * (i + 1))
x = torch.linspace(0, 1, 5).reshape(-1, 1).requires_grad_(True)
u = net(x)
du = torch.autograd.grad(u, x, grad_outputs=torch.ones_like(u), create_graph=True)[0]
d2u = torch.autograd.grad(du, x, torch.ones_like(du), create_graph=True)[0]
loss = ((d2u + u) ** 2).mean() + (u[0] - 1).pow(2).sum()
loss.backward()
print(u.detach().squeeze(), du.detach().squeeze(), d2u.detach().squeeze())
print(loss.item().__round__(10), net[0].weight.grad.squeeze())
real = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
fake = torch.tensor([[0.0, 1.0], [1.0, 0.0]])
alpha = torch.tensor([[0.25], [0.75]])
D = nn.Linear(2, 1)
with torch.no_grad():
    D.weight.copy_(torch.tensor([[0.3, -0.6]])); D.bias.fill_(0.1)
interp = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
d = D(interp) ** 2
grads = torch.autograd.grad(outputs=d, inputs=interp, grad_outputs=torch.ones(d.size()), create_graph=True, retain_graph=True, only_inputs=True)[0]
gp = ((grads.view(grads.size(0), -1).norm(2, dim=1) - 1) ** 2).mean()
gp.backward()
print(grads.detach(), gp.item().__round__(10), D.weight.grad)
img = torch.tensor([[0.1, 0.9, 0.4]], requires_grad=True)
model = nn.Linear(3, 2)
with torch.no_grad():
    model.weight.copy_(torch.tensor([[1., -1., 0.5], [0.2, 0.3, -0.4]])); model.bias.zero_()
scores = model(img)
score_max_index = scores.argmax()
score_max = scores[0, score_max_index]
score_max.backward()
saliency, _ = torch.max(img.grad.data.abs(), dim=0)
print(score_max_index, saliency)
ema = nn.Linear(3, 2)
with torch.no_grad():
    for e, p in zip(ema.parameters(), model.parameters()):
        e.data.mul_(0.0).add_(p.data, alpha=1.0)
print(torch.equal(ema.weight, model.weight))
t = torch.ones(5)
n = t.numpy()
t.add_(1)
print(n)
n2 = np.ones(5)
t2 = torch.from_numpy(n2)
np.add(n2, 1, out=n2)
print(t2)
t3 = torch.ones(3)
n3 = t3.numpy()
n3[0] = 7
print(t3)
