import copy
import torch
import torch.nn as nn

X = torch.stack([torch.linspace(-2, 2, 40), torch.cos(torch.linspace(0, 9, 40))], 1)
y = ((X[:, 0] * 1.5 - X[:, 1]) > 0.2).long()
train_idx = torch.arange(0, 40, 1)[torch.arange(40) % 4 != 0]
val_idx = torch.arange(0, 40, 4)
model = nn.Sequential(nn.Linear(2, 6), nn.ReLU(), nn.Dropout(0.0), nn.Linear(6, 2))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(0.4 * torch.sin(torch.arange(p.numel(), dtype=torch.float64) * 1.3 + i).reshape(p.shape))
opt = torch.optim.SGD(model.parameters(), lr=0.3, momentum=0.8, weight_decay=1e-4)
sched = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, factor=0.5, patience=2)
crit = nn.CrossEntropyLoss(label_smoothing=0.05)
best, best_state, bad, patience = float("inf"), None, 0, 5
for epoch in range(40):
    model.train()
    for chunk in train_idx.split(10):
        opt.zero_grad()
        loss = crit(model(X[chunk]), y[chunk])
        loss.backward()
        opt.step()
    model.eval()
    with torch.no_grad():
        logits = model(X[val_idx])
        vloss = crit(logits, y[val_idx]).item()
        acc = (logits.argmax(1) == y[val_idx]).float().mean().item()
    sched.step(vloss)
    if vloss < best - 1e-4:
        best, bad = vloss, 0
        best_state = copy.deepcopy(model.state_dict())
    else:
        bad += 1
    if epoch % 5 == 0:
        print(epoch, round(loss.item(), 5), round(vloss, 5), acc, opt.param_groups[0]["lr"])
    if bad >= patience:
        print("stop at", epoch)
        break
model.load_state_dict(best_state)
with torch.no_grad():
    print(round(crit(model(X[val_idx]), y[val_idx]).item(), 5), round(best, 5))
    probs = model(X).softmax(1)
print(probs.shape, (probs.argmax(1) == y).sum().item(), probs[:2].round(decimals=4))
print(best_state["0.weight"] is not model[0].weight, torch.equal(best_state["0.weight"], model[0].weight))
