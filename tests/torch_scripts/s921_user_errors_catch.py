# errors users catch: matmul shape mismatch, cross_entropy target dtype, cat shape, view
import torch
import torch.nn.functional as F

def show(fn):
    try:
        fn()
    except Exception as e:
        print(type(e).__name__ + ":", str(e).split(" (")[0])

show(lambda: torch.ones(2, 3) @ torch.ones(2, 3))
show(lambda: torch.mm(torch.ones(2, 3), torch.ones(4)))
show(lambda: torch.matmul(torch.ones(3), torch.ones(4)))
show(lambda: F.cross_entropy(torch.ones(2, 3), torch.tensor([0.0, 1.0, 2.0])))
show(lambda: F.cross_entropy(torch.ones(2, 3), torch.tensor([0, 3])))
show(lambda: F.nll_loss(torch.ones(2, 3), torch.tensor([1, 1, 1])))
show(lambda: torch.cat([torch.ones(2, 3), torch.ones(2, 4)]))
show(lambda: torch.ones(2, 3).view(4))
show(lambda: torch.ones(2, 3) + torch.ones(3, 2))
show(lambda: F.mse_loss(torch.ones(2), torch.ones(2, dtype=torch.int64)))
show(lambda: torch.nn.Linear(3, 2)(torch.ones(4, 5)))
