# closed-form ridge regression vs gradient descent; gradient of the validation loss w.r.t. lambda
import torch

X = torch.tensor([[1.0, 0.5], [2.0, -1.0], [0.0, 1.5], [1.5, 2.0], [-1.0, 0.0]])
y = torch.tensor([1.0, 0.0, 2.0, 3.5, -1.0])
lam = torch.tensor(0.5, requires_grad=True)
w = torch.linalg.solve(X.T @ X + lam * torch.eye(2), X.T @ y)
print(w)
Xv = torch.tensor([[1.0, 1.0], [0.5, -0.5]])
yv = torch.tensor([1.8, 0.2])
val = ((Xv @ w - yv) ** 2).mean()
val.backward()
print(val, lam.grad)
wg = torch.zeros(2, requires_grad=True)
opt = torch.optim.SGD([wg], lr=0.05)
for _ in range(500):
    opt.zero_grad()
    (((X @ wg - y) ** 2).sum() + 0.5 * (wg ** 2).sum()).backward()
    opt.step()
print(torch.allclose(wg, w.detach(), atol=1e-6))
