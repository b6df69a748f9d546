import math
import torch

x = torch.linspace(-math.pi, math.pi, 2000)
y = torch.sin(x)
p = torch.tensor([1, 2, 3])
xx = x.unsqueeze(-1).pow(p)
model = torch.nn.Sequential(torch.nn.Linear(3, 1), torch.nn.Flatten(0, 1))
with torch.no_grad():
    model[0].weight.copy_(torch.tensor([[0.2, 0.1, -0.1]]))
    model[0].bias.zero_()
loss_fn = torch.nn.MSELoss(reduction='sum')
optimizer = torch.optim.RMSprop(model.parameters(), lr=1e-3)
for t in range(600):
    y_pred = model(xx)
    loss = loss_fn(y_pred, y)
    if t % 100 == 99:
        print(t, f"{loss.item():.3f}")
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print(optimizer)
print(sorted(optimizer.state[model[0].weight].keys()))
print(optimizer.state[model[0].weight]['step'])
print(model[0].weight.detach().round(decimals=4), model[0].bias.detach().round(decimals=4))
