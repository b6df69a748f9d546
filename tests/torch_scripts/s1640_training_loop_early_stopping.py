# a complete small training loop: train/val split, early stopping, best state restored
import copy
import torch
import torch.nn as nn

X = torch.linspace(-2, 2, 40).unsqueeze(1)
Y = X ** 2 + 0.1 * torch.sin(5 * X)
Xtr, Ytr, Xva, Yva = X[::2], Y[::2], X[1::2], Y[1::2]
model = nn.Sequential(nn.Linear(1, 8), nn.Tanh(), nn.Linear(8, 1))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.linspace(-1, 1, p.numel()).reshape(p.shape) * (0.5 + 0.25 * i))
opt = torch.optim.Adam(model.parameters(), lr=0.05)
best, best_state, patience, bad = float("inf"), None, 5, 0
for epoch in range(60):
    model.train()
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(Xtr), Ytr)
    loss.backward()
    opt.step()
    model.eval()
    with torch.no_grad():
        val = nn.functional.mse_loss(model(Xva), Yva).item()
    if val < best - 1e-4:
        best, best_state, bad = val, copy.deepcopy(model.state_dict()), 0
    else:
        bad += 1
        if bad >= patience:
            break
model.load_state_dict(best_state)
with torch.no_grad():
    final = nn.functional.mse_loss(model(Xva), Yva).item()
print(epoch, round(best, 6), round(final, 6), best == final)
