# LBFGS with strong_wolfe line search on the Rosenbrock function
import torch

x = torch.tensor([-1.2, 1.0], requires_grad=True)
opt = torch.optim.LBFGS([x], lr=1, max_iter=50, line_search_fn="strong_wolfe", history_size=10)
calls = []
def closure():
    opt.zero_grad()
    loss = (1 - x[0]) ** 2 + 100 * (x[1] - x[0] ** 2) ** 2
    loss.backward()
    calls.append(loss.item())
    return loss
for _ in range(3):
    loss = opt.step(closure)
print([round(v, 6) for v in x.tolist()], loss.item() < 1e-10)
print(opt.state[x]["n_iter"], opt.state[x]["func_evals"] == len(calls))
