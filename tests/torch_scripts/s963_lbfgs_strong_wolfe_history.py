# LBFGS with strong Wolfe line search on Rosenbrock: loss per outer step, state keys, n_iter
import torch

x = torch.tensor([-1.2, 1.0], requires_grad=True)
opt = torch.optim.LBFGS([x], lr=1, max_iter=20, history_size=5, line_search_fn="strong_wolfe",
                        tolerance_grad=1e-10, tolerance_change=1e-12)

def closure():
    opt.zero_grad()
    loss = (1 - x[0]) ** 2 + 100 * (x[1] - x[0] ** 2) ** 2
    loss.backward()
    return loss

for step in range(4):
    loss = opt.step(closure)
    print(step, f"{loss.item():.6f}", [round(v, 4) for v in x.tolist()])
st = opt.state[opt.param_groups[0]["params"][0]]
print(sorted(k for k in st))
print(st["n_iter"], st["func_evals"] > 0)
print(opt.param_groups[0]["line_search_fn"], opt.param_groups[0]["history_size"])
