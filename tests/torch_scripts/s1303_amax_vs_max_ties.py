# gradient at ties: amax/amin share evenly, max(dim) picks one index, max() all-reduce shares
import torch

x = torch.tensor([[2.0, 5.0, 5.0], [1.0, 1.0, 0.0]], requires_grad=True)
for name, f in [("amax", lambda t: t.amax(1)), ("max_dim", lambda t: t.max(1).values), ("max_all", lambda t: t.max()), ("amin", lambda t: t.amin(1)), ("min_all", lambda t: t.min()), ("norm_inf", lambda t: t.norm(p=float("inf"), dim=1)), ("logsumexp", lambda t: t.logsumexp(1))]:
    x.grad = None
    f(x).sum().backward()
    print(name, x.grad)
