# Logistic regression from scratch with manual parameter updates under no_grad, .grad.zero_(),
# the sigmoid/BCE pair, and accuracy; data deterministic
import torch

t = torch.linspace(-2, 2, 40)
X = torch.stack([t, torch.cos(3 * t)], 1)
y = (t + 0.3 * torch.cos(3 * t) > 0).float()
w = torch.zeros(2, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
lr = 0.5
for epoch in range(100):
    z = X @ w + b
    p = torch.sigmoid(z)
    loss = -(y * torch.log(p + 1e-9) + (1 - y) * torch.log(1 - p + 1e-9)).mean()
    loss.backward()
    with torch.no_grad():
        w -= lr * w.grad
        b -= lr * b.grad
        w.grad.zero_()
        b.grad.zero_()
    if epoch % 25 == 0:
        print(epoch, round(loss.item(), 6))
print(w, b)
with torch.no_grad():
    acc = ((torch.sigmoid(X @ w + b) > 0.5).float() == y).float().mean()
print(acc, torch.nn.functional.binary_cross_entropy_with_logits(X @ w + b, y))
print(w.is_leaf, w.grad, b.grad_fn)
