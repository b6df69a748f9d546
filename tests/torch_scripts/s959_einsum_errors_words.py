# einsum mistakes users make and PyTorch's words for them
import torch

def show(fn):
    try:
        print(fn())
    except RuntimeError as e:
        print("RuntimeError:", str(e).split(" (")[0])

a = torch.ones(2, 3)
show(lambda: torch.einsum("ij", a, a))
show(lambda: torch.einsum("ijk", a))
show(lambda: torch.einsum("ij->ii", a))
show(lambda: torch.einsum("i,i->i", torch.ones(2), torch.ones(3)))
show(lambda: torch.einsum("ij,jk->ik", a))
show(lambda: torch.einsum("i->i", torch.tensor([1, 2])))
show(lambda: torch.einsum("ij->j", torch.ones(2, 1)))
