# Less common optimizers on one quadratic: Rprop, ASGD, NAdam, RAdam, Adamax, Adagrad, Adadelta, AdamW amsgrad maximize
import torch

def run(cls, steps=4, **kw):
    p = torch.nn.Parameter(torch.tensor([1.5, -2.0, 0.3]))
    opt = cls([p], **kw)
    for _ in range(steps):
        opt.zero_grad()
        loss = (p ** 2 * torch.tensor([1.0, 2.0, 3.0])).sum()
        if kw.get("maximize"):
            loss = -loss
        loss.backward()
        opt.step()
    return [round(v, 6) for v in p.tolist()]

print(run(torch.optim.Rprop, lr=0.1, etas=(0.4, 1.3), step_sizes=(1e-3, 1.0)))
print(run(torch.optim.ASGD, lr=0.05, t0=2))
print(run(torch.optim.NAdam, lr=0.1, momentum_decay=0.005))
print(run(torch.optim.NAdam, lr=0.1, decoupled_weight_decay=True, weight_decay=0.1))
print(run(torch.optim.RAdam, lr=0.1, steps=8))
print(run(torch.optim.RAdam, lr=0.1, decoupled_weight_decay=True, weight_decay=0.1, steps=8))
print(run(torch.optim.Adamax, lr=0.1))
print(run(torch.optim.Adagrad, lr=0.1, lr_decay=0.01, initial_accumulator_value=0.1))
print(run(torch.optim.Adadelta, lr=1.0, rho=0.8))
print(run(torch.optim.AdamW, lr=0.1, amsgrad=True, maximize=True))
print(run(torch.optim.SGD, lr=0.05, momentum=0.9, nesterov=True, dampening=0.0))
print(run(torch.optim.SGD, lr=0.05, momentum=0.9, dampening=0.5, weight_decay=0.01))
print(run(torch.optim.RMSprop, lr=0.01, centered=True, momentum=0.5))
