import torch
import torch.nn as nn

def attempt(name, f):
    try:
        r = f()
        print(name, "ok", r)
    except Exception as e:
        msg = str(e)
        print(name, type(e).__name__, [w for w in ("match", "size", "range", "grad", "version", "inplace", "leaf", "scalar", "bounds") if w in msg])

attempt("matmul", lambda: torch.ones(2, 3) @ torch.ones(2, 3))
attempt("mm", lambda: torch.mm(torch.ones(2, 3), torch.ones(4, 2)))
attempt("bmm", lambda: torch.bmm(torch.ones(2, 2, 3), torch.ones(3, 3, 2)))
attempt("add", lambda: torch.ones(2, 3) + torch.ones(4))
attempt("cat", lambda: torch.cat([torch.ones(2, 3), torch.ones(2, 4)]))
attempt("stack", lambda: torch.stack([torch.ones(2), torch.ones(3)]))
attempt("view", lambda: torch.arange(6).view(4, 2))
attempt("view_nc", lambda: torch.ones(2, 3).t().view(6))
attempt("reshape", lambda: torch.ones(2, 3).reshape(-1, 4))
attempt("linear", lambda: nn.Linear(3, 2)(torch.ones(4, 5)))
attempt("index", lambda: torch.ones(3)[5])
attempt("dim", lambda: torch.ones(2, 3).sum(dim=2))
attempt("squeeze", lambda: torch.ones(2, 3).transpose(0, 3))
def backward_twice():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = (x.exp() * x).sum()
    y.backward()
    y.backward()
attempt("backward twice", backward_twice)
def leaf_inplace():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    x.add_(1)
attempt("leaf in-place", leaf_inplace)
def nonscalar():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    (x * 2).backward()
attempt("non-scalar", nonscalar)
def no_grad_fn():
    torch.tensor([1.0, 2.0]).sum().backward()
attempt("no grad", no_grad_fn)
def numpy_grad():
    torch.tensor([1.0], requires_grad=True).numpy()
attempt("numpy", numpy_grad)
def item_many():
    torch.tensor([1.0, 2.0]).item()
attempt("item", item_many)
def grad_unused():
    x = torch.tensor(1.0, requires_grad=True); z = torch.tensor(2.0, requires_grad=True)
    return torch.autograd.grad(x * 2, [x, z])
attempt("unused", grad_unused)
attempt("unused ok", lambda: torch.autograd.grad(torch.tensor(1.0, requires_grad=True) * 2, [torch.tensor(2.0, requires_grad=True)], allow_unused=True))
def modified():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x.sigmoid()
    y.mul_(2)
    y.sum().backward()
attempt("modified", modified)
attempt("ce target", lambda: nn.functional.cross_entropy(torch.ones(2, 3), torch.tensor([0, 3])))
attempt("ce dtype", lambda: nn.functional.cross_entropy(torch.ones(2, 3), torch.tensor([0.0, 1.0])))
attempt("mse shape", lambda: nn.functional.mse_loss(torch.ones(2, 3), torch.ones(3)).shape)
attempt("bool", lambda: bool(torch.tensor([1, 2])))
attempt("int dtype grad", lambda: torch.tensor([1, 2], requires_grad=True))
attempt("optimizer", lambda: torch.optim.SGD([], lr=0.1))
attempt("lr", lambda: torch.optim.Adam([torch.nn.Parameter(torch.ones(1))], lr=-1))
attempt("conv", lambda: nn.Conv2d(3, 4, 3)(torch.ones(1, 2, 5, 5)))
attempt("embedding", lambda: nn.Embedding(3, 2)(torch.tensor([3])))
attempt("expand", lambda: torch.ones(2, 3).expand(3, 3))
attempt("permute", lambda: torch.ones(2, 3).permute(0))
