# A training loop with validation, patience-based early stopping, best-weights restore
# via copy.deepcopy(state_dict()), and torch.no_grad evaluation
import copy
import torch
import torch.nn as nn

t = torch.linspace(-2, 2, 60)
X = torch.stack([t, torch.sin(3 * t)], 1)
Y = (X[:, :1] * 2 - X[:, 1:] + 0.3 * torch.cos(7 * t)[:, None])
Xtr, Ytr, Xva, Yva = X[::3 - 1], Y[::2], X[1::2], Y[1::2]
Xtr = X[::2]
model = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 1))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=p.dtype) * 0.7 + i).view_as(p) * 0.5)
opt = torch.optim.Adam(model.parameters(), lr=0.05)
best, best_state, bad, patience = float("inf"), None, 0, 3
for epoch in range(300):
    model.train()
    opt.zero_grad()
    nn.functional.mse_loss(model(Xtr), Ytr).backward()
    opt.step()
    model.eval()
    with torch.no_grad():
        val = nn.functional.mse_loss(model(Xva), Yva).item()
    if val < best - 1e-3:
        best, bad = val, 0
        best_state = copy.deepcopy(model.state_dict())
    else:
        bad += 1
        if bad >= patience:
            print("stop at", epoch)
            break
print(round(best, 5))
model.load_state_dict(best_state)
with torch.no_grad():
    print(round(nn.functional.mse_loss(model(Xva), Yva).item(), 5))
print(best_state["0.weight"].requires_grad, model[0].weight.requires_grad)
