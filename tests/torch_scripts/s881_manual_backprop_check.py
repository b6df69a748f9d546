# Backprop by hand for a two-layer net (as in the cs231n notes) compared with autograd
import torch

X = torch.tensor([[1.0, -1.0, 0.5], [0.0, 2.0, -0.5]])
y = torch.tensor([1, 0])
W1 = torch.tensor([[0.1, -0.2, 0.3, 0.0], [0.5, 0.1, -0.1, 0.2], [-0.3, 0.4, 0.2, 0.1]], requires_grad=True)
b1 = torch.tensor([0.01, -0.02, 0.0, 0.03], requires_grad=True)
W2 = torch.tensor([[0.2, -0.1], [0.0, 0.3], [-0.4, 0.1], [0.1, 0.1]], requires_grad=True)
h_pre = X @ W1 + b1
h = h_pre.clamp(min=0)
scores = h @ W2
loss = torch.nn.functional.cross_entropy(scores, y)
loss.backward()
with torch.no_grad():
    p = scores.softmax(1)
    dscores = p.clone()
    dscores[torch.arange(2), y] -= 1
    dscores /= 2
    dW2 = h.T @ dscores
    dh = dscores @ W2.T
    dh[h_pre <= 0] = 0
    dW1 = X.T @ dh
    db1 = dh.sum(0)
print(torch.allclose(dW2, W2.grad), torch.allclose(dW1, W1.grad), torch.allclose(db1, b1.grad))
print(loss, W2.grad, db1.round(decimals=6) + 0.0)
