# The XOR network everyone writes first, with fixed init, BCEWithLogitsLoss and Adam, printing
# loss every 200 steps and the final rounded predictions
import torch
import torch.nn as nn

X = torch.tensor([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])
Y = torch.tensor([[0.0], [1.0], [1.0], [0.0]])
net = nn.Sequential(nn.Linear(2, 4), nn.Tanh(), nn.Linear(4, 1))
with torch.no_grad():
    net[0].weight.copy_(torch.tensor([[1.0, -1.0], [-1.0, 1.0], [0.5, 0.5], [0.3, -0.7]]))
    net[0].bias.copy_(torch.tensor([0.1, -0.1, 0.0, 0.2]))
    net[2].weight.copy_(torch.tensor([[0.5, 0.5, -0.5, 0.1]]))
    net[2].bias.zero_()
opt = torch.optim.Adam(net.parameters(), lr=0.05)
crit = nn.BCEWithLogitsLoss()
for step in range(1000):
    opt.zero_grad()
    loss = crit(net(X), Y)
    loss.backward()
    opt.step()
    if step % 200 == 0:
        print(step, round(loss.item(), 6))
with torch.no_grad():
    print(torch.sigmoid(net(X)).round(), round(loss.item(), 5))
