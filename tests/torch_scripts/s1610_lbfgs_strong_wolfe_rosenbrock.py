# L-BFGS with strong Wolfe line search on the Rosenbrock function; closure call counts
import torch

x = torch.tensor([-1.2, 1.0], requires_grad=True)
opt = torch.optim.LBFGS([x], lr=1, max_iter=50, history_size=10, line_search_fn="strong_wolfe",
                        tolerance_grad=1e-10, tolerance_change=1e-12)
calls = [0]


def closure():
    calls[0] += 1
    opt.zero_grad()
    f = (1 - x[0]) ** 2 + 100 * (x[1] - x[0] ** 2) ** 2
    f.backward()
    return f


for _ in range(3):
    loss = opt.step(closure)
print(x.detach().round(decimals=6), float(loss) < 1e-8, calls[0] > 10)
st = opt.state[x]
print(sorted(st.keys())[:5], st["n_iter"] > 10)
y = torch.tensor([3.0], requires_grad=True)
opt2 = torch.optim.LBFGS([y], lr=0.5, max_iter=4)


def c2():
    opt2.zero_grad()
    l = (y - 1) ** 2
    l.backward()
    return l


print(opt2.step(c2), y)
