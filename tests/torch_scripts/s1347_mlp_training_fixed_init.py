# a small MLP trained on XOR with fixed init and Adam: loss decreases, final predictions
import torch
import torch.nn as nn

X = torch.tensor([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])
Y = torch.tensor([[0.0], [1.0], [1.0], [0.0]])
net = nn.Sequential(nn.Linear(2, 4), nn.Tanh(), nn.Linear(4, 1), nn.Sigmoid())
with torch.no_grad():
    net[0].weight.copy_(torch.tensor([[1.0, -1.0], [-1.0, 1.0], [0.5, 0.5], [1.0, 1.0]]))
    net[0].bias.copy_(torch.tensor([0.0, 0.0, -0.5, -1.0]))
    net[2].weight.copy_(torch.tensor([[0.5, 0.5, -0.5, -0.5]]))
    net[2].bias.zero_()
opt = torch.optim.Adam(net.parameters(), lr=0.05)
losses = []
for step in range(300):
    opt.zero_grad()
    loss = nn.functional.binary_cross_entropy(net(X), Y)
    loss.backward()
    opt.step()
    losses.append(loss.item())
print(losses[0] > losses[-1], round(losses[0], 4))
print((net(X) > 0.5).int().flatten())
