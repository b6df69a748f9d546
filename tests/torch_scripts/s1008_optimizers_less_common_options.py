# optimizer options: SGD nesterov+dampening, Adam maximize, RMSprop centered, Adagrad lr_decay, Adadelta, weight_decay; trajectories
import torch

def run(make, steps=3):
    p = torch.nn.Parameter(torch.tensor([1.0, -2.0]))
    opt = make([p])
    for _ in range(steps):
        opt.zero_grad()
        loss = (p ** 2).sum() + p[0] * p[1]
        loss.backward()
        opt.step()
    return [round(v, 6) for v in p.tolist()]

print(run(lambda ps: torch.optim.SGD(ps, lr=0.1, momentum=0.9, nesterov=True, weight_decay=0.01)))
print(run(lambda ps: torch.optim.SGD(ps, lr=0.1, momentum=0.5, dampening=0.5)))
print(run(lambda ps: torch.optim.Adam(ps, lr=0.1, maximize=True)))
print(run(lambda ps: torch.optim.Adam(ps, lr=0.1, weight_decay=0.1, amsgrad=True)))
print(run(lambda ps: torch.optim.RMSprop(ps, lr=0.01, alpha=0.9, centered=True, momentum=0.5)))
print(run(lambda ps: torch.optim.Adagrad(ps, lr=0.5, lr_decay=0.1, initial_accumulator_value=0.1)))
print(run(lambda ps: torch.optim.Adadelta(ps, lr=1.0, rho=0.8)))
print(run(lambda ps: torch.optim.Adamax(ps, lr=0.2)))
print(run(lambda ps: torch.optim.NAdam(ps, lr=0.1, momentum_decay=0.004)))
print(run(lambda ps: torch.optim.RAdam(ps, lr=0.1, decoupled_weight_decay=True, weight_decay=0.1), steps=7))
print(run(lambda ps: torch.optim.Rprop(ps, lr=0.1, etas=(0.4, 1.3), step_sizes=(1e-3, 1.0))))
print(run(lambda ps: torch.optim.ASGD(ps, lr=0.1, t0=1)))
try:
    torch.optim.SGD([torch.nn.Parameter(torch.ones(1))], lr=0.1, nesterov=True)
except ValueError as e:
    print(e)
try:
    torch.optim.Adam([torch.nn.Parameter(torch.ones(1))], lr=-1)
except ValueError as e:
    print(e)
print(torch.optim.Adam([torch.nn.Parameter(torch.ones(1))], lr=0.1, betas=(0.9, 0.99)))
