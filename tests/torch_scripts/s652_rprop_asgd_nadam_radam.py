import torch
import torch.nn as nn

X = torch.stack([torch.linspace(-1, 1, 8), torch.linspace(1, -0.5, 8)], 1)
Y = (X @ torch.tensor([[1.5], [-2.0]]) + 0.3).squeeze(1)


def train(opt_cls, **kw):
    model = nn.Linear(2, 1)
    with torch.no_grad():
        model.weight.fill_(0.1)
        model.bias.zero_()
    opt = opt_cls(model.parameters(), **kw)
    for _ in range(10):
        opt.zero_grad()
        loss = nn.functional.mse_loss(model(X).squeeze(1), Y)
        loss.backward()
        opt.step()
    return round(loss.item(), 5), model.weight.detach().flatten().round(decimals=4).tolist()


print(train(torch.optim.Rprop, lr=0.01))
print(train(torch.optim.Rprop, lr=0.05, maximize=False, etas=(0.3, 1.5)))
print(train(torch.optim.ASGD, lr=0.1, t0=3))
print(train(torch.optim.NAdam, lr=0.05))
print(train(torch.optim.RAdam, lr=0.05))
print(train(torch.optim.Adamax, lr=0.1))
print(train(torch.optim.Adadelta, lr=1.0))
print(train(torch.optim.SGD, lr=0.1, momentum=0.9, nesterov=True))
print(train(torch.optim.Adam, lr=0.05, betas=(0.8, 0.9), weight_decay=1e-2))
m = nn.Linear(2, 1)
o = torch.optim.ASGD(m.parameters())
print(sorted(o.defaults.items()))
