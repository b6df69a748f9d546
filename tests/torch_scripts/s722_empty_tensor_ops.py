import warnings
import torch
import torch.nn as nn
import torch.nn.functional as F


def show(label, fn):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            print(label, fn())
    except Exception as e:
        print(label, type(e).__name__, str(e).splitlines()[0][:70])


e = torch.empty(0)
show("cat", lambda: torch.cat([e, torch.ones(2)]))
show("cat2d", lambda: torch.cat([torch.ones(0, 3), torch.ones(2, 3)]).shape)
show("softmax", lambda: e.softmax(0))
show("mean", lambda: e.mean())
show("std1", lambda: torch.tensor([2.0]).std())
show("var0", lambda: torch.ones(0, 3).var(0))
show("topk0", lambda: torch.tensor([1.0, 2.0]).topk(0))
show("sort", lambda: e.sort())
show("unique", lambda: torch.tensor([], dtype=torch.long).unique(return_counts=True))
show("bincount", lambda: torch.tensor([], dtype=torch.long).bincount())
show("histc", lambda: e.histc(bins=3, min=0, max=1))
show("cumsum", lambda: e.cumsum(0))
show("det0", lambda: torch.linalg.det(torch.ones(0, 0)))
show("inv0", lambda: torch.linalg.inv(torch.ones(0, 0)))
show("eigh0", lambda: torch.linalg.eigh(torch.ones(0, 0)))
show("matmul0", lambda: torch.ones(2, 0) @ torch.ones(0, 3))
show("linear0", lambda: nn.Linear(3, 2)(torch.ones(0, 3)).shape)
show("conv0", lambda: nn.Conv2d(1, 2, 3)(torch.ones(0, 1, 5, 5)).shape)
show("ce_empty", lambda: F.cross_entropy(torch.ones(0, 3), torch.tensor([], dtype=torch.long)))
show("mse_empty", lambda: F.mse_loss(e, e))
show("max_dim_empty_other", lambda: torch.ones(0, 3).max(dim=1))
show("amax_empty", lambda: torch.ones(0, 3).amax(dim=1))
show("sum_dim", lambda: torch.ones(0, 3).sum(0))
show("prod_dim", lambda: torch.ones(3, 0).prod(1))
show("logsumexp", lambda: torch.ones(3, 0).logsumexp(1))
show("norm", lambda: e.norm())
show("argsort", lambda: torch.ones(2, 0).argsort(1))
show("stack", lambda: torch.stack([e, e]).shape)
show("where", lambda: torch.where(torch.tensor([], dtype=torch.bool)))
show("nonzero", lambda: torch.zeros(2, 2).nonzero())
show("index_empty", lambda: torch.ones(3)[torch.tensor([], dtype=torch.long)])
show("quantile", lambda: e.quantile(0.5))
show("cummax", lambda: e.cummax(0))
w = torch.ones(0, 2, requires_grad=True)
(w * 3).sum().backward()
print(w.grad.shape, w.grad)
