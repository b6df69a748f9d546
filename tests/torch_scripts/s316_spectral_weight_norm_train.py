import torch
import torch.nn as nn
from torch.nn.utils.parametrizations import weight_norm
from torch.nn.utils import parametrize

net = nn.Sequential(weight_norm(nn.Linear(2, 5)), nn.Tanh(), weight_norm(nn.Linear(5, 1), dim=None))
with torch.no_grad():
    for name, p in net.named_parameters():
        p.copy_(torch.linspace(-0.8, 0.9, p.numel()).view_as(p))
print([n for n, _ in net.named_parameters()])
print(net[2].parametrizations.weight.original0.shape, net[2].parametrizations.weight.original0)
x = torch.tensor([[0.0, 1.0], [1.0, 0.0], [1.0, 1.0], [0.0, 0.0]])
y = torch.tensor([[1.0], [1.0], [0.0], [0.0]])
opt = torch.optim.SGD(net.parameters(), lr=0.5, momentum=0.9, nesterov=True)
for step in range(30):
    opt.zero_grad()
    loss = nn.functional.mse_loss(net(x), y)
    loss.backward()
    opt.step()
    if step % 10 == 0:
        print(step, round(loss.item(), 6))
w = net[0].weight
print(torch.allclose(w.norm(dim=1, keepdim=True), net[0].parametrizations.weight.original0.abs()))
sd = net.state_dict()
print(list(sd.keys()))
plain = nn.Sequential(nn.Linear(2, 5), nn.Tanh(), nn.Linear(5, 1))
with torch.no_grad():
    for i in (0, 2):
        plain[i].weight.copy_(net[i].weight)
        plain[i].bias.copy_(net[i].bias)
print(torch.allclose(plain(x), net(x)))
parametrize.remove_parametrizations(net[0], "weight")
print([n for n, _ in net[0].named_parameters()], type(net[0]).__name__)
print(net[2])
