import torch

# Rosenbrock with LBFGS + strong Wolfe line search
xy = torch.tensor([-1.5, 2.0], requires_grad=True)
opt = torch.optim.LBFGS([xy], lr=1, max_iter=50, history_size=10, line_search_fn="strong_wolfe",
                        tolerance_grad=1e-10, tolerance_change=1e-12)
calls = []


def closure():
    opt.zero_grad()
    x, y = xy
    loss = (1 - x) ** 2 + 100 * (y - x ** 2) ** 2
    loss.backward()
    calls.append(loss.item())
    return loss


for outer in range(3):
    l = opt.step(closure)
    print(outer, f"{l.item():.6e}", [round(v, 6) for v in xy.tolist()])
print(len(calls) > 3, round(calls[-1], 10))
state = opt.state[xy]
print(sorted(state.keys()))
print(state["func_evals"], state["n_iter"])

# curve fit with a parameter group of two tensors, no line search
t = torch.linspace(0, 2, 15)
obs = 2.5 * torch.exp(-1.3 * t) + 0.3
a = torch.tensor(1.0, requires_grad=True)
k = torch.tensor(0.5, requires_grad=True)
c = torch.tensor(0.0, requires_grad=True)
opt2 = torch.optim.LBFGS([a, k, c], lr=0.5, max_iter=20)


def closure2():
    opt2.zero_grad()
    r = a * torch.exp(-k * t) + c - obs
    loss = (r ** 2).mean()
    loss.backward()
    return loss


for i in range(4):
    print(i, f"{opt2.step(closure2).item():.6e}")
print(round(a.item(), 4), round(k.item(), 4), round(c.item(), 4))
print(opt2.param_groups[0]["line_search_fn"], opt2.defaults["history_size"])
