import torch


def run(make, steps=6):
    w = torch.nn.Parameter(torch.tensor([1.5, -0.5, 0.25]))
    opt = make([w])
    for _ in range(steps):
        opt.zero_grad()
        loss = (w ** 4).sum() + (w[0] * w[1]) ** 2 + w.sum()
        loss.backward()
        opt.step()
    return [round(v, 6) for v in w.tolist()]


print(run(lambda p: torch.optim.Adagrad(p, lr=0.1, lr_decay=0.01, initial_accumulator_value=0.1)))
print(run(lambda p: torch.optim.Adamax(p, lr=0.05, weight_decay=0.01)))
print(run(lambda p: torch.optim.NAdam(p, lr=0.05, momentum_decay=0.004)))
print(run(lambda p: torch.optim.NAdam(p, lr=0.05, decoupled_weight_decay=True, weight_decay=0.1)))
print(run(lambda p: torch.optim.RAdam(p, lr=0.05, weight_decay=0.1, decoupled_weight_decay=True), steps=8))
print(run(lambda p: torch.optim.Rprop(p, lr=0.05, etas=(0.4, 1.3), step_sizes=(1e-4, 1.0))))
print(run(lambda p: torch.optim.ASGD(p, lr=0.01, lambd=1e-3, t0=2)))
print(run(lambda p: torch.optim.Adadelta(p, lr=1.0, rho=0.8)))
print(run(lambda p: torch.optim.RMSprop(p, lr=0.01, momentum=0.5, centered=True)))
print(run(lambda p: torch.optim.Adam(p, lr=0.05, amsgrad=True, maximize=False)))
print(run(lambda p: torch.optim.SGD(p, lr=0.01, momentum=0.9, dampening=0.1)))
print(run(lambda p: torch.optim.AdamW(p, lr=0.05, weight_decay=0.5)))
w = torch.nn.Parameter(torch.ones(2))
opt = torch.optim.Adagrad([w])
print(sorted(opt.defaults), sorted(opt.state[w]) if w in opt.state else "no state yet")
(w ** 2).sum().backward()
opt.step()
print(sorted(opt.state[w]), opt.state[w]["step"], opt.state[w]["sum"])
