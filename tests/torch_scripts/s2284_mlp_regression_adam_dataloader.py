import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset, random_split

X = torch.linspace(-3, 3, 120).unsqueeze(1)
Y = torch.sin(X) + 0.1 * X ** 2
ds = TensorDataset(X, Y)
train_ds, val_ds = random_split(ds, [100, 20], generator=torch.Generator().manual_seed(0))
print(len(train_ds), len(val_ds), type(train_ds).__name__)
loader = DataLoader(ds, batch_size=30, shuffle=False)
model = nn.Sequential(nn.Linear(1, 16), nn.Tanh(), nn.Linear(16, 16), nn.Tanh(), nn.Linear(16, 1))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.linspace(-1, 1, p.numel()).view_as(p).mul(0.7).add(0.05 * i).sin())
opt = torch.optim.Adam(model.parameters(), lr=0.01)
loss_fn = nn.MSELoss()
for epoch in range(30):
    total = 0.0
    for xb, yb in loader:
        pred = model(xb)
        loss = loss_fn(pred, yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(xb)
    if epoch % 6 == 5:
        print(f"epoch {epoch + 1:3d} loss {total / len(ds):.5f}")
model.eval()
with torch.no_grad():
    test = torch.tensor([[-2.0], [0.0], [1.5]])
    print(model(test).round(decimals=3).squeeze(1), (torch.sin(test) + 0.1 * test ** 2).squeeze(1))
print(model)
print(sum(p.numel() for p in model.parameters() if p.requires_grad))
