# Index errors as users meet them: index_select / gather / scatter / embedding out of range,
# narrow past the end, select on a missing dim, negative index too small
import torch


def show(label, fn, n=80):
    try:
        print(label, "ok", fn())
    except Exception as e:
        print(label, type(e).__name__, str(e).splitlines()[0][:n])


m = torch.arange(20.0).view(4, 5)
show("index_select dim0", lambda: m.index_select(0, torch.tensor([4])), 26)
show("index_select dim1", lambda: m.index_select(1, torch.tensor([0, 9])), 51)
show("index_select dim -1", lambda: m.index_select(-1, torch.tensor([-1])), 52)
show("index_select 1d", lambda: torch.ones(3).index_select(0, torch.tensor([3])), 26)
show("narrow end", lambda: m.narrow(1, 4, 2))
show("narrow start", lambda: m.narrow(0, -5, 1))
show("select", lambda: m.select(2, 0), 71)
show("select idx", lambda: m.select(0, 4), 60)
show("row index", lambda: m[4], 52)
show("neg index", lambda: m[-5], 52)
show("broadcast_shapes", lambda: torch.broadcast_shapes((2, 3), (4,)))
show("broadcast_shapes 3", lambda: torch.broadcast_shapes((1, 3), (4, 1), (2, 4, 5)))
show("broadcast_shapes ok", lambda: torch.broadcast_shapes((1, 3), (4, 1), (2, 4, 3)))
