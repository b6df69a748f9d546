# matmul's broadcasting rules (1-D promotions, batch broadcast) and the errors of bmm / mv / dot
import torch

def show(fn):
    try:
        r = fn()
        print(tuple(r.shape))
    except RuntimeError as e:
        print("RuntimeError:", str(e).split(" (")[0])

show(lambda: torch.ones(3) @ torch.ones(3, 4))
show(lambda: torch.ones(2, 1, 3, 4) @ torch.ones(5, 4, 2))
show(lambda: torch.ones(2, 3, 4) @ torch.ones(4))
show(lambda: torch.bmm(torch.ones(2, 3, 4), torch.ones(3, 4, 5)))
show(lambda: torch.bmm(torch.ones(2, 3, 4), torch.ones(2, 5, 5)))
show(lambda: torch.mv(torch.ones(2, 3), torch.ones(2)))
show(lambda: torch.dot(torch.ones(3), torch.ones(4)))
show(lambda: torch.ones(2, 3, 4) @ torch.ones(3, 5, 6))
show(lambda: torch.ones(3, dtype=torch.int64) @ torch.ones(3))
show(lambda: torch.mm(torch.ones(2, 3), torch.ones(3, 4, 1)))
