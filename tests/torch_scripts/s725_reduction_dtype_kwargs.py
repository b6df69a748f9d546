import torch


def show(label, fn):
    try:
        print(label, fn())
    except Exception as e:
        print(label, type(e).__name__, str(e).splitlines()[0][:70])


i = torch.tensor([[1, 2], [3, 4]], dtype=torch.int32)
f = torch.tensor([[1.5, 2.5], [3.5, -4.5]])
show("sum dtype", lambda: i.sum(dtype=torch.float32))
show("sum dim dtype", lambda: i.sum(1, dtype=torch.int64))
show("cumsum dtype", lambda: i.cumsum(0, dtype=torch.float64))
show("prod dtype", lambda: i.prod(dtype=torch.int8))
show("mean int", lambda: i.mean(1, dtype=torch.float64))
try:
    i.softmax(0)
except NotImplementedError as e:
    print("softmax int", str(e)[:48])
show("softmax int dtype", lambda: i.softmax(0, dtype=torch.float64))
show("log_softmax dtype", lambda: f.log_softmax(1, dtype=torch.float32))
show("cumprod dtype", lambda: f.cumprod(1, dtype=torch.float32))
show("clamp min>max", lambda: f.clamp(min=2.0, max=1.0))
show("clip", lambda: f.clip(-1, 1))
show("clamp_min", lambda: f.clamp_min(0.0))
show("clamp_max int", lambda: i.clamp_max(2))
show("clamp none", lambda: f.clamp())
show("norm dtype", lambda: f.norm(dtype=torch.float32))
show("sum keepdim list", lambda: f.sum([0, 1], keepdim=True))
show("sum dim tuple neg", lambda: f.sum((-1, -2)))
show("sum dup dim", lambda: f.sum((0, 0)))
show("mean empty dims", lambda: f.mean(()))
show("sum empty dims", lambda: f.sum(dim=()))
show("amax empty dims", lambda: f.amax(dim=()))
show("std dims", lambda: f.std((0, 1), correction=0))
show("var keepdim", lambda: f.var(1, keepdim=True, correction=1))
show("max bad dim", lambda: f.max(2))
show("logsumexp int", lambda: i.logsumexp(1))
show("nansum int", lambda: i.nansum())
show("count dims", lambda: torch.count_nonzero(i, dim=(0, 1)))
show("all dims", lambda: (i > 1).all(dim=(0, 1)) if True else None)
show("any keepdim", lambda: (i > 3).any(1, keepdim=True))
show("argmax keepdim none", lambda: f.argmax(keepdim=True))
