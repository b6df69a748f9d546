import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

x = torch.linspace(0, 2, 32).unsqueeze(1)
y = torch.cat([torch.sin(x), torch.cos(x)], dim=1)
feats = torch.cat([x, x ** 2, x ** 3], dim=1)
loader = DataLoader(TensorDataset(feats, y), batch_size=8, shuffle=False)

model = nn.Linear(3, 2)
with torch.no_grad():
    model.weight.zero_()
    model.bias.fill_(0.1)
opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9, nesterov=True,
                      weight_decay=1e-4)
crit = nn.MSELoss()
for epoch in range(1, 41):
    running = 0.0
    for xb, yb in loader:
        opt.zero_grad()
        loss = crit(model(xb), yb)
        loss.backward()
        opt.step()
        running += loss.item() * xb.size(0)
    if epoch % 10 == 0:
        print(f"epoch {epoch:2d} loss {running / len(loader.dataset):.6f}")
print(model.weight.detach().round(decimals=4))
print(model.bias.detach().round(decimals=4))
st = opt.state_dict()
print(st["param_groups"][0]["nesterov"], sorted(st["state"][0].keys()))
print(st["state"][0]["momentum_buffer"].norm().item() < 1.0)
