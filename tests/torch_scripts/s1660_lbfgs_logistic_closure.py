# Logistic regression fitted with LBFGS and a closure (strong Wolfe line search), L2
# penalty, then compared with Newton's method using torch.autograd.functional.hessian
import numpy as np
import torch
import torch.nn as nn

rng = np.random.default_rng(111)
X = torch.from_numpy(rng.standard_normal((50, 3)))
w_true = torch.tensor([1.5, -1.0, 0.5])
y = (torch.sigmoid(X @ w_true + 0.3) > torch.from_numpy(rng.random(50))).double()


class LogReg(nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = nn.Linear(3, 1)
        nn.init.zeros_(self.linear.weight)
        nn.init.zeros_(self.linear.bias)

    def forward(self, x):
        return self.linear(x).squeeze(-1)


model = LogReg()
lam = 0.01
crit = nn.BCEWithLogitsLoss()
opt = torch.optim.LBFGS(model.parameters(), lr=1, max_iter=20, tolerance_grad=1e-9,
                        tolerance_change=1e-12, history_size=10, line_search_fn="strong_wolfe")
calls = []


def closure():
    opt.zero_grad()
    loss = crit(model(X), y) + lam * model.linear.weight.pow(2).sum()
    loss.backward()
    calls.append(loss.item())
    return loss


for epoch in range(3):
    loss = opt.step(closure)
    print(epoch, f"{loss.item():.8f}", len(calls))
state = opt.state[opt._params[0]]
print("n_iter", state["n_iter"], "func_evals", state["func_evals"])
print(model.linear.weight.detach().numpy().round(5), model.linear.bias.detach().numpy().round(5))


def objective(theta):
    w, b = theta[:3], theta[3]
    return crit(X @ w + b, y) + lam * w.pow(2).sum()


theta = torch.zeros(4)
for k in range(6):
    g = torch.autograd.functional.jacobian(objective, theta)
    H = torch.autograd.functional.hessian(objective, theta)
    theta = theta - torch.linalg.solve(H, g)
print("newton", theta.numpy().round(5))
print("gradient at lbfgs solution",
      torch.autograd.functional.jacobian(objective, torch.cat(
          [model.linear.weight.detach().view(-1), model.linear.bias.detach()])).abs().max().item() < 1e-6)
