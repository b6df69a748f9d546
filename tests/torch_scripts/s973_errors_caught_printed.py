# common mistakes caught and printed, as forum answers show them
import torch
import torch.nn as nn

def attempt(f):
    try:
        f()
        print("no error")
    except (RuntimeError, ValueError, TypeError, IndexError) as e:
        print(type(e).__name__ + ":", str(e).split(" (")[0])

attempt(lambda: torch.ones(2, 3) @ torch.ones(2, 3))
attempt(lambda: torch.ones(3).view(2, 2))
attempt(lambda: torch.ones(2, 3).t().view(6))
attempt(lambda: torch.cat([torch.ones(2, 3), torch.ones(3, 2)]))
attempt(lambda: torch.stack([torch.ones(2), torch.ones(3)]))
attempt(lambda: torch.ones(2, 3)[2])
attempt(lambda: torch.ones(2, 3).sum(dim=2))
attempt(lambda: nn.Linear(3, 2)(torch.ones(4, 5)))
attempt(lambda: torch.ones(3, requires_grad=True).numpy())
attempt(lambda: torch.ones(2, requires_grad=True).sum().backward() or torch.tensor([1, 2], dtype=torch.float32).requires_grad_())
attempt(lambda: torch.tensor([1, 2]).requires_grad_())
attempt(lambda: (torch.ones(2, requires_grad=True) * 2).backward())
attempt(lambda: torch.ones(2, 2).expand(3, 3))
attempt(lambda: torch.ones(4).reshape(3, -1))
attempt(lambda: torch.ones(2, 3).permute(0, 0))
attempt(lambda: torch.ones(2).item())
attempt(lambda: nn.functional.cross_entropy(torch.ones(2, 3), torch.tensor([0.0, 1.0])))
attempt(lambda: nn.functional.cross_entropy(torch.ones(2, 3), torch.tensor([0, 3])))
attempt(lambda: torch.ones(3).squeeze(2))
attempt(lambda: torch.arange(5)[torch.tensor([True, False])])
