# The same quadratic bowl minimised by the less common optimizers and flags a comparison
# notebook tries: Adagrad (lr_decay, initial_accumulator_value), Adamax, NAdam
# (momentum_decay, decoupled), RAdam (decoupled_weight_decay), Rprop (etas, step_sizes),
# ASGD, Adam(maximize=True) on the negated loss, and SGD(dampening)
import torch

A = torch.tensor([[3.0, 0.5], [0.5, 1.0]])
b = torch.tensor([1.0, -2.0])


def run(make, steps=5, sign=1.0):
    w = torch.zeros(2, requires_grad=True)
    opt = make([w])
    for _ in range(steps):
        opt.zero_grad()
        loss = sign * (0.5 * w @ A @ w - b @ w)
        loss.backward()
        opt.step()
    return f"{type(opt).__name__:8s} {(sign * loss).item():+.6f} {w.detach().numpy().round(6)}"


print(run(lambda p: torch.optim.Adagrad(p, lr=0.5, lr_decay=0.01, initial_accumulator_value=0.1)))
print(run(lambda p: torch.optim.Adamax(p, lr=0.3, weight_decay=0.01)))
print(run(lambda p: torch.optim.NAdam(p, lr=0.3, momentum_decay=0.004)))
print(run(lambda p: torch.optim.NAdam(p, lr=0.3, weight_decay=0.1, decoupled_weight_decay=True)))
print(run(lambda p: torch.optim.RAdam(p, lr=0.3, weight_decay=0.1, decoupled_weight_decay=True), steps=8))
print(run(lambda p: torch.optim.Rprop(p, lr=0.1, etas=(0.4, 1.3), step_sizes=(1e-4, 1.0))))
print(run(lambda p: torch.optim.ASGD(p, lr=0.2, t0=2, lambd=1e-3)))
print(run(lambda p: torch.optim.Adam(p, lr=0.3, maximize=True), sign=-1.0))
print(run(lambda p: torch.optim.SGD(p, lr=0.2, momentum=0.8, dampening=0.5)))
print(run(lambda p: torch.optim.Adadelta(p, lr=1.0, rho=0.8)))
print(run(lambda p: torch.optim.RMSprop(p, lr=0.05, centered=True, momentum=0.5)))
w = torch.zeros(2, requires_grad=True)
opt = torch.optim.Rprop([w])
(w.sum() * 2).backward()
opt.step()
print(sorted(opt.state[w].keys()), opt.state[w]["step_size"])
opt = torch.optim.ASGD([w])
opt.step()
print(sorted(opt.state[w].keys()), opt.state[w]["eta"], opt.state[w]["mu"])
