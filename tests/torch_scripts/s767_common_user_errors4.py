# The errors beginners hit, printed as they appear in forum posts (first line of the message)
import torch
import torch.nn as nn
import torch.nn.functional as F


def show(label, fn, n=70):
    try:
        r = fn()
        print(label, "ok", r)
    except Exception as e:
        print(label, type(e).__name__, str(e).splitlines()[0][:n])


lin = nn.Linear(4, 5)
show("linear shape", lambda: lin(torch.ones(2, 3)), 55)
show("mm shape", lambda: torch.mm(torch.ones(2, 3), torch.ones(4, 5)))
show("matmul shape", lambda: torch.ones(2, 3) @ torch.ones(2, 3))
show("add broadcast", lambda: torch.ones(3) + torch.ones(4))
show("view noncontig", lambda: torch.ones(2, 3).t().view(6))
show("view bad", lambda: torch.ones(2, 3).view(4, 2))
show("ce float target dims", lambda: F.cross_entropy(torch.ones(2, 3), torch.tensor([[0.0, 1.0, 2.0]])))
show("ce long out of range", lambda: F.cross_entropy(torch.ones(2, 3), torch.tensor([0, 3])), 26)
show("ce int target", lambda: F.cross_entropy(torch.ones(2, 3), torch.tensor([0, 1], dtype=torch.int32)), 53)
show("nll shape", lambda: F.nll_loss(torch.ones(2, 3), torch.tensor([0, 1, 2])))
show("mse shape warn", lambda: F.mse_loss(torch.ones(2, 1), torch.ones(2, 1)).item())
show("bce range", lambda: F.binary_cross_entropy(torch.tensor([1.5]), torch.tensor([1.0])))
show("item many", lambda: torch.ones(2).item())
show("numpy grad", lambda: torch.ones(2, requires_grad=True).numpy())
show("backward nonscalar", lambda: (torch.ones(2, requires_grad=True) * 2).backward(), 54)
show("backward no grad", lambda: torch.ones(2).sum().backward())
show("leaf inplace", lambda: torch.ones(2, requires_grad=True).add_(1))
show("conv input dims", lambda: nn.Conv2d(3, 4, 3)(torch.ones(3, 3)))
show("conv channels", lambda: nn.Conv2d(3, 4, 3)(torch.ones(1, 1, 5, 5)))
show("embedding float idx", lambda: nn.Embedding(5, 2)(torch.tensor([1.0, 2.0])))
show("embedding range", lambda: nn.Embedding(5, 2)(torch.tensor([5])), 30)
show("cat dims", lambda: torch.cat([torch.ones(2, 3), torch.ones(2, 4)]))
show("stack sizes", lambda: torch.stack([torch.ones(2), torch.ones(3)]))
show("index out", lambda: torch.ones(3)[5], 52)
show("bool to float", lambda: torch.tensor([True]) + 1.5)
show("long div", lambda: torch.tensor([3]) / 2)
show("long mean", lambda: torch.tensor([1, 2]).mean())
show("softmax no dim", lambda: F.softmax(torch.ones(2, 2), dim=1).sum().item())
show("optim empty", lambda: torch.optim.SGD([], lr=0.1))
show("tensor ragged", lambda: torch.tensor([[1, 2], [3]]))
show("squeeze dim", lambda: torch.ones(2, 3).squeeze(1).shape)
show("reshape bad", lambda: torch.arange(6).reshape(4, -1))
show("batchnorm one", lambda: nn.BatchNorm1d(3)(torch.ones(1, 3)))
show("lstm dims", lambda: nn.LSTM(3, 4)(torch.ones(5, 2))[0].shape)
show("requires_grad int", lambda: torch.tensor([1, 2], requires_grad=True))
