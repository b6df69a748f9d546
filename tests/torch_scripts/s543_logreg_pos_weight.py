import torch
import torch.nn as nn

X = torch.stack([torch.linspace(-2, 2, 40), torch.cos(torch.linspace(0, 6, 40))], dim=1)
y = (X[:, 0] + 0.5 * X[:, 1] > 1.0).float()
print("positives", int(y.sum().item()), "of", len(y), y.dtype)
n_pos = y.sum()
pos_weight = (len(y) - n_pos) / n_pos
print("pos_weight", round(pos_weight.item(), 4))
model = nn.Linear(2, 1)
nn.init.zeros_(model.weight)
nn.init.constant_(model.bias, -0.5)
crit = nn.BCEWithLogitsLoss(pos_weight=pos_weight.reshape(1))
opt = torch.optim.SGD(model.parameters(), lr=0.5)
for epoch in range(200):
    opt.zero_grad()
    logits = model(X).squeeze(1)
    loss = crit(logits, y)
    loss.backward()
    opt.step()
    if epoch % 50 == 49:
        print(epoch + 1, round(loss.item(), 5))
with torch.no_grad():
    prob = torch.sigmoid(model(X)).squeeze(1)
    pred = prob > 0.5
    tp = (pred & y.bool()).sum().item()
    fp = (pred & ~y.bool()).sum().item()
    fn = (~pred & y.bool()).sum().item()
    print("tp fp fn", tp, fp, fn, f"precision={tp / max(tp + fp, 1):.3f} recall={tp / max(tp + fn, 1):.3f}")
    print(model.weight.data.round(decimals=3), model.bias.data.round(decimals=3))
plain = nn.BCEWithLogitsLoss(reduction="none")(logits.detach(), y)
weighted = nn.BCEWithLogitsLoss(reduction="none", pos_weight=torch.tensor([3.0]))(logits.detach(), y)
print(plain[:3].round(decimals=4), weighted[:3].round(decimals=4), weighted.shape)
w = torch.linspace(0.5, 1.5, 40)
print(round(nn.functional.binary_cross_entropy_with_logits(logits.detach(), y, weight=w).item(), 5))
print(round(nn.functional.binary_cross_entropy(prob, y.to(prob.dtype), reduction="sum").item(), 4))
