import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset, random_split

X = torch.linspace(-3, 3, 50).unsqueeze(1)
Y = (X > 0).long().squeeze(1)
ds = TensorDataset(X, Y)
train, val, test = random_split(ds, [0.6, 0.2, 0.2], generator=torch.Generator().manual_seed(0))
print(len(train), len(val), len(test))
print(sorted(train.indices + val.indices + test.indices) == list(range(50)))
uneven = random_split(range(7), [0.5, 0.5])
print([len(u) for u in uneven])
try:
    random_split(ds, [30, 30])
except ValueError as e:
    print("ValueError:", e)
model = nn.Linear(1, 2)
with torch.no_grad():
    model.weight.copy_(torch.tensor([[0.1], [-0.1]]))
    model.bias.zero_()
opt = torch.optim.SGD(model.parameters(), lr=0.5)
ordered = TensorDataset(X[::2], Y[::2])
accum = 3
loader = DataLoader(ordered, batch_size=4)
opt.zero_grad()
for step, (xb, yb) in enumerate(loader, 1):
    loss = nn.functional.cross_entropy(model(xb), yb) / accum
    loss.backward()
    if step % accum == 0 or step == len(loader):
        opt.step()
        opt.zero_grad()
        print(step, model.weight.detach().flatten().round(decimals=5).tolist())
with torch.no_grad():
    acc = (model(X).argmax(1) == Y).double().mean()
print(len(loader), round(acc.item(), 4))
