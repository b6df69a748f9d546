# Errors users catch and print in full: wrong dtype to an op, grad of a non-scalar,
# setting requires_grad on non-leaf, backward twice, mismatched devices names
import torch
import torch.nn as nn


def show(label, fn, n=90):
    try:
        fn()
        print(label, "no error")
    except Exception as e:
        print(label, type(e).__name__, "|", str(e).splitlines()[0][:n])


x = torch.ones(3, requires_grad=True)
y = x * 2
show("nonleaf rg", lambda: setattr(y, "requires_grad", False))
show("grad nonscalar", lambda: torch.autograd.grad(y, x), 54)
z = (x ** 2).sum()
z.backward()
show("backward twice", lambda: z.backward())
show("int rg", lambda: torch.arange(3).requires_grad_(), 58)
show("matmul 1d", lambda: torch.ones(3) @ torch.ones(4))
show("unsqueeze", lambda: torch.ones(2).unsqueeze(3), 70)
show("permute", lambda: torch.ones(2, 3).permute(0))
show("expand", lambda: torch.ones(2, 3).expand(3, 3))
show("gather idx", lambda: torch.ones(2, 3).gather(1, torch.tensor([[0.0]])), 46)
show("index_select", lambda: torch.ones(3).index_select(0, torch.tensor([[0, 1]])), 48)
show("argmax empty", lambda: torch.tensor([]).argmax())
show("max empty", lambda: torch.tensor([]).max())
show("cat empty list", lambda: torch.cat([]))
show("stack 0", lambda: torch.stack([]))
show("topk too big", lambda: torch.ones(3).topk(5))
show("repeat fewer", lambda: torch.ones(2, 2).repeat(2))
show("split size", lambda: torch.ones(4).split(0))
show("chunk 0", lambda: torch.ones(4).chunk(0))
show("flip dup", lambda: torch.ones(2, 2).flip(0, 0))
