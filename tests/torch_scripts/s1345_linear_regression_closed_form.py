# a tutorial-style linear regression: gradient descent converges to lstsq solution
import torch

X = torch.tensor([[1.0, 0.5], [2.0, -1.0], [3.0, 1.5], [4.0, 0.0], [5.0, 2.0]])
y = X @ torch.tensor([2.0, -1.0]) + 0.5
Xb = torch.cat([X, torch.ones(5, 1)], 1)
sol = torch.linalg.lstsq(Xb, y.unsqueeze(1)).solution.squeeze()
print(sol)
w = torch.zeros(3, requires_grad=True)
opt = torch.optim.SGD([w], lr=0.02)
for i in range(3000):
    opt.zero_grad()
    loss = ((Xb @ w - y) ** 2).mean()
    loss.backward()
    opt.step()
print(w.detach().round(decimals=3), f"{loss.item():.6f}")
print(torch.allclose(w, sol, atol=1e-3))
