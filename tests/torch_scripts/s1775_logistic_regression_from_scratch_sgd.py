# Logistic regression from scratch as a course notebook writes it: parameters as plain
# tensors with requires_grad, a sigmoid model, BCE written by hand with clamp, manual SGD
# updates inside torch.no_grad() and grad.zero_(), then the same with nn.Module + optim
import numpy as np
import torch

rng = np.random.default_rng(1211)
X = torch.from_numpy(rng.standard_normal((100, 2)))
y = ((X[:, 0] + 0.5 * X[:, 1]) > 0.2).double()
w = torch.zeros(2, requires_grad=True)
b = torch.zeros(1, requires_grad=True)


def model(x):
    return torch.sigmoid(x @ w + b)


def bce(p, t):
    p = p.clamp(1e-7, 1 - 1e-7)
    return -(t * torch.log(p) + (1 - t) * torch.log(1 - p)).mean()


lr = 0.5
for epoch in range(50):
    loss = bce(model(X), y)
    loss.backward()
    with torch.no_grad():
        w -= lr * w.grad
        b -= lr * b.grad
        w.grad.zero_()
        b.grad.zero_()
    if epoch % 10 == 9:
        acc = ((model(X) > 0.5).double() == y).double().mean()
        print(f"epoch {epoch + 1}: loss {loss.item():.5f} acc {acc.item():.3f}")
print(w.detach().numpy().round(4), b.detach().numpy().round(4))
lin = torch.nn.Linear(2, 1)
torch.nn.init.zeros_(lin.weight)
torch.nn.init.zeros_(lin.bias)
opt = torch.optim.SGD(lin.parameters(), lr=lr)
crit = torch.nn.BCEWithLogitsLoss()
for epoch in range(50):
    opt.zero_grad()
    loss2 = crit(lin(X).squeeze(1), y)
    loss2.backward()
    opt.step()
print(f"{loss2.item():.5f}", torch.allclose(lin.weight.detach().view(-1), w.detach(), atol=1e-4))
