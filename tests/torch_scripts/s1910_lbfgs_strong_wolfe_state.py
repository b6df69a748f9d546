# LBFGS with a closure as an optimisation tutorial runs it: Rosenbrock with strong-Wolfe
# line search, the optimizer state's func_evals/n_iter, a least-squares fit without line
# search, and max_iter/history_size/tolerance options
import torch


def rosen(p):
    return (1 - p[0]) ** 2 + 100 * (p[1] - p[0] ** 2) ** 2


x = torch.tensor([-1.2, 1.0], requires_grad=True)
opt = torch.optim.LBFGS([x], lr=1, max_iter=20, history_size=5, line_search_fn="strong_wolfe")
calls = []


def closure():
    opt.zero_grad()
    loss = rosen(x)
    loss.backward()
    calls.append(loss.item())
    return loss


for outer in range(3):
    loss = opt.step(closure)
    st = opt.state[x]
    print(outer, f"{loss.item():.8f}", st["func_evals"], st["n_iter"], x.detach().numpy().round(6))
print(len(calls), sorted(opt.state[x].keys()))
A = torch.stack([torch.ones(8), torch.linspace(0, 1, 8), torch.linspace(0, 1, 8) ** 2], 1)
b = torch.cos(torch.linspace(0, 1, 8))
w = torch.zeros(3, requires_grad=True)
opt2 = torch.optim.LBFGS([w], lr=0.5, max_iter=10, tolerance_grad=1e-9, tolerance_change=1e-12)


def closure2():
    opt2.zero_grad()
    r = ((A @ w - b) ** 2).sum()
    r.backward()
    return r


for _ in range(2):
    print(f"{opt2.step(closure2).item():.8f}", w.detach().numpy().round(6))
print(torch.linalg.lstsq(A, b.unsqueeze(1)).solution.squeeze(1).numpy().round(6))
print(opt2.defaults["history_size"], opt2.defaults["line_search_fn"])
