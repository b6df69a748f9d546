# tutorial logistic regression with nn.Module, BCEWithLogitsLoss and accuracy; LBFGS on it
import torch
import torch.nn as nn

X = torch.tensor([[0.0, 0.0], [1.0, 0.2], [0.2, 1.0], [2.0, 2.0], [2.5, 1.8], [1.8, 2.6]])
y = torch.tensor([0.0, 0.0, 0.0, 1.0, 1.0, 1.0])
model = nn.Linear(2, 1)
with torch.no_grad():
    model.weight.zero_()
    model.bias.zero_()
opt = torch.optim.LBFGS(model.parameters(), lr=0.5, max_iter=20)
lossf = nn.BCEWithLogitsLoss()
def closure():
    opt.zero_grad()
    l = lossf(model(X).squeeze(1) * 0.1, y)
    l.backward()
    return l
for _ in range(3):
    l = opt.step(closure)
pred = (model(X).squeeze(1) > 0).float()
print(pred, (pred == y).float().mean().item())
print(f"{l.item():.4f}", l.item() < 0.5)
