# LBFGS with a closure on Rosenbrock, and SGD with closure returning loss
import torch

xy = torch.tensor([-1.0, 1.5], requires_grad=True)
opt = torch.optim.LBFGS([xy], lr=1, max_iter=50, line_search_fn="strong_wolfe")
def closure():
    opt.zero_grad()
    loss = (1 - xy[0]) ** 2 + 100 * (xy[1] - xy[0] ** 2) ** 2
    loss.backward()
    return loss
for i in range(3):
    l = opt.step(closure)
print(torch.round(xy.detach(), decimals=4), f"{l.item():.3e}" if l.item() > 1e-8 else "small")
w = torch.tensor([2.0], requires_grad=True)
sgd = torch.optim.SGD([w], lr=0.1)
def c2():
    sgd.zero_grad()
    loss = (w - 1) ** 2
    loss.sum().backward()
    return loss
print(sgd.step(c2), w)
print(opt.state_dict()["param_groups"][0]["max_iter"], sorted(opt.state[xy].keys())[:4])
