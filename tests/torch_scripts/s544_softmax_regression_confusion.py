import torch
import torch.nn.functional as F

torch.set_printoptions(precision=3)
C = 3
t = torch.linspace(0, 1, 30)
X = torch.stack([torch.cos(6.28 * t) * (1 + t), torch.sin(6.28 * t) * (1 + t), t], 1)
y = (torch.arange(30) % C)
W = torch.zeros(3, C, requires_grad=True)
b = torch.zeros(C, requires_grad=True)
class_w = torch.tensor([1.0, 2.0, 0.5])
for it in range(100):
    logits = X @ W + b
    loss = F.cross_entropy(logits, y, weight=class_w)
    W.grad = None
    b.grad = None
    loss.backward()
    with torch.no_grad():
        W -= 0.5 * W.grad
        b -= 0.5 * b.grad
print(round(loss.item(), 5))
pred = (X @ W + b).argmax(dim=1)
cm = torch.bincount(y * C + pred, minlength=C * C).reshape(C, C)
print(cm)
print("acc", (pred == y).float().mean().item(), cm.diag().sum().item() / cm.sum().item())
y_ign = y.clone()
y_ign[::4] = -100
l1 = F.cross_entropy(X @ W + b, y_ign)
l2 = F.cross_entropy((X @ W + b)[y_ign != -100], y[y_ign != -100])
print(torch.isclose(l1, l2).item(), round(l1.item(), 5))
y_ign2 = y.clone(); y_ign2[:5] = 2
print(round(F.cross_entropy(X @ W + b, y_ign2, ignore_index=2, reduction="sum").item(), 4))
probs = F.softmax(X @ W + b, dim=-1)
print(probs.sum(-1)[:4], probs.max(dim=1).values.min() > 1 / C)
nll = F.nll_loss(F.log_softmax(X @ W + b, dim=1), y, weight=class_w, reduction="none")
print(nll.shape, round(nll.sum().item() / class_w[y].sum().item(), 5))
soft = F.one_hot(y, C).double() * 0.9 + 0.1 / C
print(round(F.cross_entropy(X @ W + b, soft).item(), 5), round(F.cross_entropy(X @ W + b, y, label_smoothing=0.1).item(), 5))
