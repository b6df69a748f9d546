# Printing optimizer.state_dict() after a few steps for several optimizers (as tutorials do to inspect state)
import torch

for cls, kw in [(torch.optim.RMSprop, dict(lr=0.01, momentum=0.1, centered=True)), (torch.optim.Adagrad, dict(lr=0.1)),
                (torch.optim.NAdam, dict(lr=0.01)), (torch.optim.RAdam, dict(lr=0.01)), (torch.optim.ASGD, dict(lr=0.01))]:
    w = torch.nn.Parameter(torch.tensor([0.5, -1.5]))
    opt = cls([w], **kw)
    for _ in range(3):
        opt.zero_grad()
        ((w - 1) ** 2).sum().backward()
        opt.step()
    print(cls.__name__)
    print(opt.state_dict())
    print(list(opt.param_groups[0].keys()))
