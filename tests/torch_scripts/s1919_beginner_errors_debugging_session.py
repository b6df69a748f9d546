# A debugging session from a forum thread: the errors beginners hit in a first training
# loop, each caught and printed with its message (shapes, dtypes, targets, views, graphs),
# (the messages to which tapegrad appends its own context are left out; lines cut at 72)
import torch
import torch.nn as nn
import torch.nn.functional as F


def attempt(label, fn):
    try:
        out = fn()
        print(label, "ok", out if not isinstance(out, torch.Tensor) else tuple(out.shape))
    except Exception as e:
        print(label, type(e).__name__, str(e).split("\n")[0][:72])


lin = nn.Linear(4, 3)
x = torch.ones(2, 5)
attempt("ce target oob", lambda: F.nll_loss(torch.zeros(2, 3), torch.tensor([0, 3])))
attempt("ce 1d target shape", lambda: F.cross_entropy(torch.zeros(2, 3), torch.tensor([[0], [1]])))
attempt("mse shape warn", lambda: F.mse_loss(torch.zeros(3, 1), torch.zeros(3)).shape)
attempt("view", lambda: torch.arange(6.0).view(2, 3).t().view(6))
attempt("reshape bad", lambda: torch.arange(6.0).reshape(4, -1))
attempt("leaf inplace", lambda: torch.ones(2, requires_grad=True).add_(1))
attempt("no grad_fn", lambda: torch.ones(2).sum().backward())
attempt("non scalar", lambda: (torch.ones(2, requires_grad=True) * 2).backward())
attempt("numpy grad", lambda: torch.ones(2, requires_grad=True).numpy())
attempt("item many", lambda: torch.ones(2).item())
attempt("cat dims", lambda: torch.cat([torch.ones(2, 3), torch.ones(3, 2)]))
attempt("stack sizes", lambda: torch.stack([torch.ones(2), torch.ones(3)]))
attempt("matmul", lambda: torch.ones(2, 3) @ torch.ones(2, 3))
attempt("bmm", lambda: torch.bmm(torch.ones(2, 3, 4), torch.ones(3, 4, 5)))
attempt("index oob", lambda: torch.arange(3)[5])
attempt("long mean", lambda: torch.arange(3).mean())
attempt("conv input", lambda: nn.Conv2d(3, 4, 3)(torch.ones(1, 1, 5, 5)))
attempt("conv 3d input", lambda: nn.Conv2d(1, 4, 3)(torch.ones(5, 5)))
attempt("embedding float", lambda: nn.Embedding(5, 2)(torch.tensor([1.0])))
attempt("embedding oob", lambda: nn.Embedding(5, 2)(torch.tensor([5])))
attempt("bce range", lambda: F.binary_cross_entropy(torch.tensor([1.5]), torch.tensor([1.0])))
attempt("lstm input", lambda: nn.LSTM(3, 4)(torch.ones(2, 5)))
w = torch.ones(3, requires_grad=True)
y = (w * 2).sum()
y.backward()
attempt("backward twice", lambda: y.backward())
attempt("optimizer empty", lambda: torch.optim.SGD([], lr=0.1))
attempt("optimizer no lr", lambda: torch.optim.SGD([w], lr=-1))
attempt("zero_grad set_to_none", lambda: (torch.optim.SGD([w], lr=0.1).zero_grad(), w.grad)[1])
