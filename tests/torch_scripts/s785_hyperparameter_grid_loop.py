# A small grid search: itertools.product over lr and weight_decay, a fresh model per run from a
# state_dict snapshot, results sorted by validation loss, torch.no_grad evaluation
import copy
import itertools
import torch
import torch.nn as nn

X = torch.linspace(-2, 2, 40).unsqueeze(1)
Y = X ** 3 - X + 0.1 * torch.cos(5 * X)
train_idx = torch.arange(0, 40, 2)
val_idx = torch.arange(1, 40, 2)
base = nn.Sequential(nn.Linear(1, 12), nn.Tanh(), nn.Linear(12, 1))
with torch.no_grad():
    for i, p in enumerate(base.parameters()):
        p.copy_(0.6 * torch.sin(torch.arange(p.numel(), dtype=p.dtype) * 0.97 + i).view_as(p))
snapshot = copy.deepcopy(base.state_dict())
results = []
for lr, wd, opt_name in itertools.product([0.01, 0.05], [0.0, 1e-3], ["adam", "sgd"]):
    model = nn.Sequential(nn.Linear(1, 12), nn.Tanh(), nn.Linear(12, 1))
    model.load_state_dict(snapshot)
    if opt_name == "adam":
        opt = torch.optim.Adam(model.parameters(), lr=lr, weight_decay=wd)
    else:
        opt = torch.optim.SGD(model.parameters(), lr=lr, weight_decay=wd, momentum=0.9)
    for epoch in range(60):
        opt.zero_grad()
        loss = nn.functional.mse_loss(model(X[train_idx]), Y[train_idx])
        loss.backward()
        opt.step()
    model.eval()
    with torch.no_grad():
        val = nn.functional.mse_loss(model(X[val_idx]), Y[val_idx]).item()
    results.append({"lr": lr, "wd": wd, "opt": opt_name, "train": loss.item(), "val": val})
results.sort(key=lambda r: r["val"])
for r in results[:4]:
    print(f"{r['opt']:4s} lr={r['lr']:<5} wd={r['wd']:<6} train={r['train']:.5f} val={r['val']:.5f}")
print(len(results), torch.equal(base[0].weight, snapshot["0.weight"]))
