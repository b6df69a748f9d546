# soft k-means: responsibilities by softmax of negative distances, centroid update gradients
import torch

X = torch.tensor([[0.0, 0.0], [0.2, 0.1], [3.0, 3.0], [3.1, 2.9], [0.1, -0.1]])
C = torch.tensor([[0.5, 0.5], [2.5, 2.5]], requires_grad=True)
for it in range(3):
    d2 = torch.cdist(X, C) ** 2
    R = torch.softmax(-d2, dim=1)
    loss = (R * d2).sum()
    gC, = torch.autograd.grad(loss, C)
    with torch.no_grad():
        C -= 0.05 * gC
    print(it, round(loss.item(), 6))
print(torch.round(C.detach(), decimals=5))
print(R.argmax(1))
