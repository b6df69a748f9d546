# Adam with amsgrad and weight_decay vs AdamW: different updates, deterministic values
import torch

for cls, kw in [(torch.optim.Adam, dict(weight_decay=0.1)), (torch.optim.Adam, dict(amsgrad=True)), (torch.optim.AdamW, dict(weight_decay=0.1)), (torch.optim.Adam, dict(maximize=True))]:
    w = torch.nn.Parameter(torch.tensor([1.0, -2.0, 0.5]))
    opt = cls([w], lr=0.1, **kw)
    for i in range(4):
        opt.zero_grad()
        (w ** 2 * torch.tensor([1.0, 0.5, 3.0])).sum().backward()
        opt.step()
    print(cls.__name__, kw, w.data)
    print(sorted(opt.state[w].keys()), opt.state[w]["step"])
