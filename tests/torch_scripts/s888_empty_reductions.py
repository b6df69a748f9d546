# Reductions over empty tensors: sum 0, prod 1, mean nan, max raising, amax with dim of size 0,
# logsumexp -inf, any/all, cumsum of empty, std of one element nan
import warnings
import torch

e = torch.tensor([])
print(e.sum(), e.prod(), e.mean(), e.nansum(), torch.logsumexp(e, 0), e.any(), e.all(), e.cumsum(0), e.norm())
for fn in [lambda: e.max(), lambda: e.min(), lambda: e.argmax(), lambda: e.amax(), lambda: e.median(), lambda: torch.ones(0, 3).max(0)]:
    try:
        print(fn())
    except (RuntimeError, IndexError) as err:
        print(type(err).__name__, str(err)[:60])
z = torch.ones(0, 3)
print(z.sum(0), z.mean(0), z.max(1).values.shape if False else z.amax(1).shape, z.sum(1).shape, z.prod(0))
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    print(torch.tensor([1.0]).std(), torch.tensor([2.0]).var(correction=0), torch.ones(1, 3).var(0))
print(torch.tensor([[]]).sum(1), torch.zeros(2, 0).mean(1), torch.count_nonzero(e), torch.unique(e))
