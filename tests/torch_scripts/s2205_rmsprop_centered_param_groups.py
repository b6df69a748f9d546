import torch
import torch.nn as nn

net = nn.Sequential(nn.Linear(2, 3), nn.Tanh(), nn.Linear(3, 1))
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.linspace(-0.6, 0.6, p.numel()).view_as(p) + 0.05 * i)
X = torch.tensor([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])
Y = torch.tensor([[0.0], [1.0], [1.0], [0.0]])
opt = torch.optim.RMSprop([
    {"params": net[0].parameters(), "lr": 0.05, "centered": True, "momentum": 0.5},
    {"params": net[2].parameters(), "alpha": 0.9},
], lr=0.02, eps=1e-6)
print([g["lr"] for g in opt.param_groups], [g["centered"] for g in opt.param_groups])
for epoch in range(60):
    opt.zero_grad()
    loss = nn.functional.mse_loss(net(X), Y)
    loss.backward()
    opt.step()
    if epoch % 15 == 0:
        print(epoch, round(loss.item(), 6))
state = opt.state[net[0].weight]
print(sorted(state.keys()))
print(state["grad_avg"].round(decimals=5))
print(sorted(opt.state[net[2].bias].keys()))
print(net(X).detach().round(decimals=4).squeeze(1))
opt2 = torch.optim.Adamax(net.parameters(), lr=0.01, betas=(0.8, 0.99))
for _ in range(5):
    opt2.zero_grad()
    nn.functional.mse_loss(net(X), Y).backward()
    opt2.step()
print(sorted(opt2.state[net[2].weight].keys()), opt2.state[net[2].weight]["exp_inf"].round(decimals=5))
