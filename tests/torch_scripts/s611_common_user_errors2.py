import torch
import torch.nn as nn
import torch.nn.functional as F


def attempt(label, fn, n=60):
    try:
        fn()
        print(label, "ok")
    except Exception as e:
        print(label, type(e).__name__, str(e)[:n])


lin = nn.Linear(4, 2)
attempt("linear", lambda: lin(torch.ones(3, 5)), 45)
attempt("conv", lambda: nn.Conv2d(3, 4, 3)(torch.ones(1, 2, 5, 5)), 40)
attempt("ce_range", lambda: F.cross_entropy(torch.zeros(2, 3), torch.tensor([0, 5])), 25)
attempt("ce_dtype", lambda: F.cross_entropy(torch.zeros(2, 3), torch.tensor([0.0, 1.0])), 30)
attempt("nll_shape", lambda: F.nll_loss(torch.zeros(2, 3), torch.tensor([0, 1, 2])), 40)
attempt("opt_nonleaf", lambda: torch.optim.SGD([torch.ones(2, requires_grad=True) * 2], lr=0.1), 40)
attempt("opt_empty", lambda: torch.optim.Adam([], lr=0.1))
attempt("opt_tensor", lambda: torch.optim.SGD(torch.ones(2, requires_grad=True), lr=0.1), 70)
attempt("backward_nograd", lambda: torch.ones(2).sum().backward())
attempt("attr", lambda: lin.foo)
attempt("reshape", lambda: torch.ones(8).reshape(3, 3))
attempt("view", lambda: torch.ones(2, 3).t().view(6), 50)
attempt("expand", lambda: torch.ones(2, 3).expand(3, 3), 50)
attempt("index", lambda: torch.ones(3)[3], 52)
attempt("stack_empty", lambda: torch.stack([]))
attempt("mm", lambda: torch.ones(2, 3) @ torch.ones(2, 3))
attempt("broadcast", lambda: torch.ones(2, 3) + torch.ones(4))
attempt("item", lambda: torch.ones(2).item())
attempt("numpy_grad", lambda: torch.ones(2, requires_grad=True).numpy(), 40)
attempt("mse_warn_shape", lambda: print(F.mse_loss(torch.zeros(3, 1), torch.ones(3)).item()))
attempt("bool_idx", lambda: torch.ones(3)[torch.tensor([True, False])], 50)
attempt("dim", lambda: torch.ones(2, 2).sum(dim=2), 40)
attempt("embedding_float", lambda: nn.Embedding(3, 2)(torch.tensor([0.0, 1.0])), 60)
attempt("lstm_input", lambda: nn.LSTM(3, 4)(torch.ones(2, 5)), 40)
attempt("bn_channels", lambda: nn.BatchNorm1d(3)(torch.ones(4, 5)), 40)
attempt("sequential_idx", lambda: nn.Sequential(nn.ReLU())[3])
attempt("load_missing", lambda: lin.load_state_dict({}), 40)
attempt("leaf_inplace", lambda: torch.ones(2, requires_grad=True).add_(1), 60)
