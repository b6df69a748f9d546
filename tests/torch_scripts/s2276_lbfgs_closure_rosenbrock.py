import torch


def rosenbrock(xy):
    x, y = xy
    return (1 - x) ** 2 + 100 * (y - x ** 2) ** 2


xy = torch.tensor([-1.5, 2.0], requires_grad=True)
optimizer = torch.optim.LBFGS([xy], lr=1, max_iter=20, history_size=10, line_search_fn="strong_wolfe")
calls = []


def closure():
    optimizer.zero_grad()
    loss = rosenbrock(xy)
    loss.backward()
    calls.append(loss.item())
    return loss


for i in range(5):
    loss = optimizer.step(closure)
    print(i, f"{loss.item():.6f}", f"{rosenbrock(xy).item():.6e}")
print(xy.detach().round(decimals=4), len(calls) > 5)
print(sorted(optimizer.state[xy].keys()))
print(optimizer.state[xy]['func_evals'] == len(calls), optimizer.state[xy]['n_iter'])
w = torch.zeros(3, requires_grad=True)
A = torch.tensor([[3.0, 1.0, 0.0], [1.0, 2.0, 0.5], [0.0, 0.5, 1.0]])
b = torch.tensor([1.0, -1.0, 2.0])
opt = torch.optim.LBFGS([w], lr=0.5, max_iter=50)


def closure2():
    opt.zero_grad()
    l = 0.5 * w @ A @ w - b @ w
    l.backward()
    return l


opt.step(closure2)
print(w.detach().round(decimals=4), torch.linalg.solve(A, b).round(decimals=4))
