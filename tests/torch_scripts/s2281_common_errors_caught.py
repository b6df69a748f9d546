import torch
import torch.nn as nn


def show(fn):
    try:
        fn()
        print("no error")
    except Exception as e:
        print(type(e).__name__ + ":", str(e).splitlines()[0])


show(lambda: torch.ones(2, 3) @ torch.ones(2, 3))
show(lambda: torch.ones(2, 3) + torch.ones(3, 2))
show(lambda: torch.ones(6).view(4, 2))
show(lambda: torch.arange(6.0).view(2, 3).t().view(6))
show(lambda: nn.Linear(4, 2)(torch.ones(3, 5)))
show(lambda: torch.cat([torch.ones(2, 3), torch.ones(2, 4)]))
show(lambda: torch.stack([torch.ones(2), torch.ones(3)]))
show(lambda: torch.ones(3)[5])
show(lambda: torch.ones(2, 2).sum(dim=2))
show(lambda: torch.tensor([1.0, 2.0]).backward())
show(lambda: torch.ones(2, requires_grad=True).numpy())
show(lambda: nn.functional.cross_entropy(torch.ones(2, 3), torch.tensor([0.0, 1.0])))
show(lambda: nn.functional.cross_entropy(torch.ones(2, 3), torch.tensor([0, 3])))
show(lambda: torch.ones(2, 3, dtype=torch.float32).mm(torch.ones(3, 2, dtype=torch.float64).to(torch.int64)))
show(lambda: torch.tensor([[1, 2], [3]]))
show(lambda: torch.ones(2, 3).item())
show(lambda: torch.zeros(2).long().mean())
show(lambda: torch.ones(2, 3).reshape(4, -1))
show(lambda: torch.ones(2, 3).permute(0))
show(lambda: torch.ones(2, 3).squeeze(3))
show(lambda: torch.ones(3).expand(2, 4))
show(lambda: torch.optim.SGD([torch.ones(2)], lr=-1))
show(lambda: torch.optim.Adam([], lr=0.1))
show(lambda: torch.ones(2).requires_grad_().add_(1))
show(lambda: nn.Conv2d(3, 4, 3)(torch.ones(1, 2, 5, 5)))
show(lambda: torch.autograd.grad(torch.ones(2, requires_grad=True).sum(), torch.ones(2, requires_grad=True)))
