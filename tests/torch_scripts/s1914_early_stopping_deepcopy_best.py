# Early stopping as a course homework writes it: track validation loss, keep
# copy.deepcopy(model.state_dict()) of the best epoch, patience counter, then restore the
# best weights; checking the snapshot is independent of later updates
import copy
import torch
import torch.nn as nn

t = torch.linspace(-1, 1, 20).unsqueeze(1)
y = t.pow(3) - 0.5 * t + 0.05 * torch.sin(25 * t)
tr, va = slice(0, 20, 2), slice(1, 20, 2)
model = nn.Sequential(nn.Linear(1, 12), nn.Tanh(), nn.Linear(12, 1))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float64) * 2.1 + i).view_as(p) * 0.5)
opt = torch.optim.SGD(model.parameters(), lr=0.2, momentum=0.9, nesterov=True)
best, best_state, best_epoch, patience, bad = float("inf"), None, -1, 3, 0
for epoch in range(30):
    model.train()
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(t[tr]), y[tr])
    loss.backward()
    opt.step()
    model.eval()
    with torch.no_grad():
        val = nn.functional.mse_loss(model(t[va]), y[va]).item()
    if val < best - 1e-5:
        best, best_epoch, bad = val, epoch, 0
        best_state = copy.deepcopy(model.state_dict())
    else:
        bad += 1
        if bad >= patience:
            print("stop at", epoch)
            break
print(best_epoch, f"{best:.6f}")
now = model.state_dict()["0.weight"].clone()
print(torch.equal(now, best_state["0.weight"]), best_state["0.weight"].requires_grad)
model.load_state_dict(best_state)
with torch.no_grad():
    print(f"{nn.functional.mse_loss(model(t[va]), y[va]).item():.6f}")
print(type(best_state).__name__, list(best_state)[:2], best_state["2.bias"].is_leaf)
