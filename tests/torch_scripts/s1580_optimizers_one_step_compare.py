# one step of several optimizers on the same quadratic: the updated parameters
import torch

def run(make, steps=3):
    w = torch.tensor([1.0, -2.0, 0.5], requires_grad=True)
    opt = make([w])
    for _ in range(steps):
        opt.zero_grad()
        loss = (w ** 2 * torch.tensor([1.0, 3.0, 0.5])).sum() + w[0] * w[1]
        loss.backward()
        opt.step()
    return w.detach()


print(run(lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9, nesterov=True, weight_decay=0.01)))
print(run(lambda p: torch.optim.Adam(p, lr=0.1, amsgrad=True)))
print(run(lambda p: torch.optim.AdamW(p, lr=0.1, weight_decay=0.1)))
print(run(lambda p: torch.optim.RMSprop(p, lr=0.01, centered=True, momentum=0.5)))
print(run(lambda p: torch.optim.Adagrad(p, lr=0.1, lr_decay=0.01)))
print(run(lambda p: torch.optim.Adadelta(p, lr=1.0)))
print(run(lambda p: torch.optim.Adamax(p, lr=0.1)))
print(run(lambda p: torch.optim.NAdam(p, lr=0.1)))
print(run(lambda p: torch.optim.RAdam(p, lr=0.1), steps=7))
print(run(lambda p: torch.optim.Rprop(p, lr=0.1)))
print(run(lambda p: torch.optim.ASGD(p, lr=0.1)))
print(run(lambda p: torch.optim.SGD(p, lr=0.1, maximize=True)))
