import torch
import torch.nn as nn
import torch.nn.functional as F

torch.set_printoptions(precision=4)
n = 32
i = torch.arange(n, dtype=torch.float64)
age = 20 + (i * 7) % 50
income = 1000 * (1 + torch.sin(i))
city = (i.long() * 3) % 4
label = ((age > 40) ^ (city == 2)).float()
num = torch.stack([age, income], dim=1)
mu, sd = num.mean(0), num.std(0, unbiased=False)
num = (num - mu) / sd
feats = torch.cat([num, F.one_hot(city, num_classes=4).double()], dim=1)
print(feats.shape, label.mean().item(), city.bincount())
model = nn.Sequential(nn.Linear(6, 8), nn.LeakyReLU(0.1), nn.Linear(8, 1))
with torch.no_grad():
    for j, p in enumerate(model.parameters()):
        p.copy_(0.3 * torch.cos(torch.arange(p.numel(), dtype=p.dtype) * 2.1 + j).view_as(p))
pos_weight = (label == 0).sum() / (label == 1).sum()
crit = nn.BCEWithLogitsLoss(pos_weight=pos_weight)
opt = torch.optim.AdamW(model.parameters(), lr=0.05, weight_decay=0.01)
for epoch in range(40):
    opt.zero_grad()
    logits = model(feats).squeeze(1)
    loss = crit(logits, label)
    loss.backward()
    opt.step()
print(round(loss.item(), 5), round(pos_weight.item(), 4))
with torch.no_grad():
    prob = torch.sigmoid(model(feats).squeeze(1))
pred = (prob > 0.5).float()
tp = ((pred == 1) & (label == 1)).sum().item()
fp = ((pred == 1) & (label == 0)).sum().item()
fn = ((pred == 0) & (label == 1)).sum().item()
print(tp, fp, fn, round((pred == label).float().mean().item(), 4))
# ROC AUC by ranking
order = torch.argsort(prob, descending=True)
l_sorted = label[order]
tpr = torch.cumsum(l_sorted, 0) / l_sorted.sum()
fpr = torch.cumsum(1 - l_sorted, 0) / (1 - l_sorted).sum()
auc = torch.trapezoid(torch.cat([torch.zeros(1), tpr]), torch.cat([torch.zeros(1), fpr]))
print(round(auc.item(), 4))
print(torch.stack([prob[:4], label[:4]], 1))
