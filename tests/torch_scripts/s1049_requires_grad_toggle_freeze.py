# freezing mid-training: requires_grad_(False) on a layer, optimizer skips its params, unfreezing later, grads None vs zero
import torch
import torch.nn as nn

net = nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 1))
for p in net.parameters():
    nn.init.constant_(p, 0.5)
opt = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
X = torch.tensor([[1.0, -1.0], [2.0, 0.5]])
for step in range(4):
    if step == 1:
        net[0].requires_grad_(False)
    if step == 3:
        net[0].requires_grad_(True)
    opt.zero_grad()
    loss = net(X).pow(2).mean()
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 6), net[0].weight.grad is None, net[0].weight[0].tolist(), [round(v, 5) for v in net[1].weight.view(-1).tolist()])
print(sorted(len(s) for s in opt.state.values()))
print([p.requires_grad for p in net.parameters()], sum(p.numel() for p in net.parameters() if p.requires_grad))
