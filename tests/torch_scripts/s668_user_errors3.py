import torch
import torch.nn as nn


def attempt(label, fn, n=90):
    try:
        fn()
        print(label, "ok")
    except Exception as e:
        print(label, type(e).__name__, str(e).splitlines()[0][:n])


attempt("matmul", lambda: torch.ones(2, 3) @ torch.ones(2, 3))
attempt("linear", lambda: nn.Linear(4, 2)(torch.ones(3, 5)), 55)
attempt("view", lambda: torch.arange(6).view(4, 2))
attempt("cat", lambda: torch.cat([torch.ones(2, 3), torch.ones(3, 2)]))
attempt("stack", lambda: torch.stack([torch.ones(2), torch.ones(3)]))
attempt("add", lambda: torch.ones(2, 3) + torch.ones(4), 89)
attempt("item", lambda: torch.ones(2).item())
attempt("backward twice", lambda: [(y := (torch.ones(1, requires_grad=True) * 2).exp().sum()).backward(), y.backward()])
attempt("grad non-scalar", lambda: (torch.ones(2, requires_grad=True) * 2).backward(), 54)
attempt("no grad", lambda: torch.ones(2).sum().backward())
attempt("numpy grad", lambda: torch.ones(2, requires_grad=True).numpy())
attempt("index", lambda: torch.ones(3)[5], 52)
attempt("ce dtype", lambda: nn.functional.cross_entropy(torch.ones(2, 3), torch.tensor([0.0, 1.0])), 55)
attempt("ce range", lambda: nn.functional.cross_entropy(torch.ones(2, 3), torch.tensor([0, 3])), 26)
attempt("conv", lambda: nn.Conv2d(3, 4, 3)(torch.ones(1, 2, 5, 5)))
attempt("embedding", lambda: nn.Embedding(3, 2)(torch.tensor([3])))
attempt("reshape", lambda: torch.ones(5).reshape(2, -1))
attempt("permute", lambda: torch.ones(2, 3).permute(0))
attempt("squeeze dim", lambda: torch.ones(2, 3).squeeze(3), 70)
attempt("int grad", lambda: torch.tensor([1, 2], requires_grad=True), 70)
attempt("mse shapes", lambda: nn.functional.mse_loss(torch.ones(2, 1), torch.ones(2)))
attempt("bce range", lambda: nn.functional.binary_cross_entropy(torch.tensor([1.5]), torch.tensor([1.0])))
attempt("expand", lambda: torch.ones(2, 3).expand(4, 3))
attempt("gather", lambda: torch.ones(2, 3).gather(1, torch.tensor([[0.0]])), 46)
attempt("optimizer", lambda: torch.optim.SGD([], lr=0.1))
attempt("lr", lambda: torch.optim.Adam([torch.ones(1, requires_grad=True)], lr=-1))
