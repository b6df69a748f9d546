# a few steps of RMSprop(centered, momentum), Adagrad(lr_decay), SGD(nesterov), Adamax, NAdam, RAdam, Adadelta
import torch

def run(cls, **kw):
    w = torch.nn.Parameter(torch.tensor([1.0, -2.0]))
    opt = cls([w], **kw)
    for _ in range(3):
        opt.zero_grad()
        (w ** 2 * torch.tensor([1.0, 3.0]) + w).sum().backward()
        opt.step()
    return w.data

print(run(torch.optim.RMSprop, lr=0.01, centered=True, momentum=0.9))
print(run(torch.optim.Adagrad, lr=0.1, lr_decay=0.01, initial_accumulator_value=0.1))
print(run(torch.optim.SGD, lr=0.05, momentum=0.9, nesterov=True, dampening=0))
print(run(torch.optim.Adamax, lr=0.1))
print(run(torch.optim.NAdam, lr=0.1))
print(run(torch.optim.RAdam, lr=0.1))
print(run(torch.optim.Adadelta, lr=1.0))
print(run(torch.optim.NAdam, lr=0.1, decoupled_weight_decay=True, weight_decay=0.1))
