"""tapegrad.utils.data: datasets, samplers, DataLoader and default_collate give the batches,
structures, dtypes, lengths and errors of torch.utils.data (randomness from tapegrad's
generators: reproducible by seed, a permutation each epoch, not PyTorch's numbers)."""
import collections

import numpy as np
import pytest

import tapegrad as tg
from tapegrad.utils import data as D

X = np.arange(14.0).reshape(7, 2)
Y = np.arange(7) % 3


def _as_np(obj):
    """Batches as nested plain Python (arrays as lists, with dtype names), for comparison."""
    if hasattr(obj, "detach"):
        a = np.asarray(obj.detach())
        return ("tensor", str(a.dtype), a.tolist())
    if isinstance(obj, dict):
        return {k: _as_np(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return (type(obj).__name__, [_as_np(v) for v in obj])
    return obj


Point = collections.namedtuple("Point", "x y")


def _samples(L, kind):
    """The same samples in both libraries (tensors built by each)."""
    if kind == "tensors":
        return [(L.tensor(X[i]), L.tensor(Y[i])) for i in range(7)]
    if kind == "numbers":
        return [(float(X[i, 0]), int(Y[i]), bool(i % 2)) for i in range(7)]
    if kind == "dicts":
        return [{"x": L.tensor(X[i]), "label": int(Y[i]), "name": f"s{i}",
                 "nested": [X[i].astype(np.float32), np.float64(i)]} for i in range(7)]
    if kind == "namedtuples":
        return [Point(np.int64(i), [float(i), float(-i)]) for i in range(7)]
    raise KeyError(kind)


@pytest.mark.oracle
@pytest.mark.parametrize("kind", ["tensors", "numbers", "dicts", "namedtuples"])
@pytest.mark.parametrize("batch_size, drop_last", [(1, False), (3, False), (3, True),
                                                   (None, False)])
def test_loader_batches_match_torch(kind, batch_size, drop_last, torch):
    import torch.utils.data as T
    mine = D.DataLoader(_samples(tg, kind), batch_size=batch_size, drop_last=drop_last)
    theirs = T.DataLoader(_samples(torch, kind), batch_size=batch_size, drop_last=drop_last)
    assert len(mine) == len(theirs)
    assert [_as_np(b) for b in mine] == [_as_np(b) for b in theirs]


@pytest.mark.oracle
def test_tensor_dataset_subset_concat_match_torch(torch):
    import torch.utils.data as T

    def build(L, M):
        a = M.TensorDataset(L.tensor(X), L.tensor(Y))
        b = M.TensorDataset(L.tensor(-X[:3]), L.tensor(Y[:3]))
        cat = a + b
        sub = M.Subset(cat, [9, 0, 4, 8])
        return a, cat, sub
    for m, t in zip(build(tg, D), build(torch, T), strict=True):
        assert len(m) == len(t)
        assert [_as_np(m[i]) for i in range(len(m))] == [_as_np(t[i]) for i in range(len(t))]
    cat_m, cat_t = build(tg, D)[1], build(torch, T)[1]
    assert cat_m.cumulative_sizes == cat_t.cumulative_sizes
    assert _as_np(cat_m[-2]) == _as_np(cat_t[-2])
    batches = [_as_np(b) for b in D.DataLoader(build(tg, D)[2], batch_size=3)]
    assert batches == [_as_np(b) for b in T.DataLoader(build(torch, T)[2], batch_size=3)]


@pytest.mark.oracle
@pytest.mark.parametrize("n, lengths", [(10, [0.7, 0.3]), (11, [0.5, 0.25, 0.25]),
                                        (7, [0.1, 0.9]), (9, [4, 5])])
def test_random_split_lengths_match_torch_and_partition(n, lengths, torch):
    import torch.utils.data as T
    mine = D.random_split(range(n), lengths, generator=tg.Generator().manual_seed(3))
    theirs = T.random_split(range(n), lengths, generator=torch.Generator().manual_seed(3))
    assert [len(s) for s in mine] == [len(s) for s in theirs]
    assert sorted(i for s in mine for i in s) == list(range(n))
    again = D.random_split(range(n), lengths, generator=tg.Generator().manual_seed(3))
    assert [list(s) for s in again] == [list(s) for s in mine]


def test_shuffle_is_a_permutation_per_epoch_reproducible_by_generator():
    ds = D.TensorDataset(tg.arange(20))

    def epochs(seed):
        loader = D.DataLoader(ds, batch_size=6, shuffle=True,
                              generator=tg.Generator().manual_seed(seed))
        return [[i for (b,) in loader for i in b.tolist()] for _ in range(3)]
    e = epochs(5)
    assert all(sorted(x) == list(range(20)) for x in e)
    assert e[0] != e[1] and e == epochs(5) and e != epochs(6)
    tg.manual_seed(1)  # without generator=: drawn from the default generator
    a = [i for (b,) in D.DataLoader(ds, batch_size=4, shuffle=True) for i in b.tolist()]
    tg.manual_seed(1)
    b = [i for (b,) in D.DataLoader(ds, batch_size=4, shuffle=True) for i in b.tolist()]
    assert a == b and sorted(a) == list(range(20)) and a != list(range(20))


@pytest.mark.oracle
def test_samplers_match_torch(torch):
    import torch.utils.data as T
    for drop_last in (False, True):
        for bs in (1, 2, 3, 8):
            m = D.BatchSampler(D.SequentialSampler(range(7)), bs, drop_last)
            t = T.BatchSampler(T.SequentialSampler(range(7)), bs, drop_last)
            assert list(m) == list(t) and len(m) == len(t)
    r = D.RandomSampler(range(5), replacement=True, num_samples=12,
                        generator=tg.Generator().manual_seed(0))
    draws = list(r)
    assert len(draws) == len(r) == 12 and set(draws) <= set(range(5))
    r = D.RandomSampler(range(5), num_samples=12, generator=tg.Generator().manual_seed(0))
    draws = list(r)
    assert len(draws) == 12 and sorted(draws[:5]) == sorted(draws[5:10]) == list(range(5))
    # a batch_sampler and a sampler given to the loader
    bs = [[0, 4], [1], [6, 5, 2]]
    ds_m, ds_t = D.TensorDataset(tg.tensor(X)), T.TensorDataset(torch.tensor(X))
    assert [_as_np(b) for b in D.DataLoader(ds_m, batch_sampler=bs)] == \
        [_as_np(b) for b in T.DataLoader(ds_t, batch_sampler=bs)]
    assert [_as_np(b) for b in D.DataLoader(ds_m, sampler=[3, 1, 2], batch_size=2)] == \
        [_as_np(b) for b in T.DataLoader(ds_t, sampler=[3, 1, 2], batch_size=2)]


class _Stream(D.IterableDataset):
    def __init__(self, n):
        self.n = n

    def __iter__(self):
        return iter({"i": k, "v": [float(k)] * 2} for k in range(self.n))

    def __len__(self):
        return self.n


@pytest.mark.oracle
def test_iterable_dataset_batches_match_torch(torch):
    import torch.utils.data as T
    TS = type("TS", (T.IterableDataset,), {"__init__": _Stream.__init__,
                                             "__iter__": _Stream.__iter__,
                                             "__len__": _Stream.__len__})
    for kw in (dict(batch_size=3), dict(batch_size=3, drop_last=True), dict(batch_size=None),
               dict(batch_size=2, num_workers=0)):
        m, t = D.DataLoader(_Stream(7), **kw), T.DataLoader(TS(7), **kw)
        assert len(m) == len(t)
        assert [_as_np(b) for b in m] == [_as_np(b) for b in t]
    chained = D.DataLoader(_Stream(2) + _Stream(3), batch_size=4)
    assert [b["i"].tolist() for b in chained] == [[0, 1, 0, 1], [2]]


def test_workers_load_in_process_and_collate_fn_is_used():
    loader = D.DataLoader(list(range(5)), batch_size=2, num_workers=2,
                          collate_fn=lambda batch: sum(batch))
    assert list(loader) == [1, 5, 4]
    assert D.get_worker_info() is None


@pytest.mark.oracle
@pytest.mark.parametrize("make", [
    lambda M, ds: M.DataLoader(ds, sampler=[0, 1], shuffle=True),
    lambda M, ds: M.DataLoader(ds, batch_sampler=[[0]], batch_size=2),
    lambda M, ds: M.DataLoader(ds, batch_size=None, drop_last=True),
    lambda M, ds: M.DataLoader(ds, num_workers=-1),
    lambda M, ds: M.BatchSampler(range(3), 0, False),
    lambda M, ds: M.BatchSampler(range(3), 2, 1),
    lambda M, ds: M.random_split(range(5), [2, 2]),
    lambda M, ds: M.random_split(range(5), [0.5, 1.2, -0.7]),
    lambda M, ds: M.ConcatDataset([]),
    lambda M, ds: M.ConcatDataset([ds])[-10],
    lambda M, ds: list(M.DataLoader([(1, 2), (3,)], batch_size=2)),
    lambda M, ds: list(M.DataLoader([object(), object()], batch_size=2)),
    lambda M, ds: list(M.DataLoader([np.array(["a"]), np.array(["b"])], batch_size=2)),
    lambda M, ds: M.Dataset()[0],
], ids=["sampler_shuffle", "batch_sampler_batch_size", "none_drop_last", "workers",
        "batch_size_0", "drop_last_int", "split_sum", "split_fraction", "concat_empty",
        "concat_index", "unequal_lists", "object", "string_array", "abstract"])
def test_errors_match_torch(make, torch):
    import torch.utils.data as T
    with pytest.raises(Exception) as theirs:
        make(T, list(range(3)))
    # (where PyTorch asserts, tapegrad raises ValueError: asserts vanish under python -O)
    expected = ValueError if type(theirs.value) is AssertionError else type(theirs.value)
    with pytest.raises(expected) as mine:
        make(D, list(range(3)))
    # the same message, up to the library's name for an object's type
    want = str(theirs.value).replace("torch", "tapegrad")
    assert str(mine.value) == want or want.split(";")[0] in str(mine.value)


def test_tensor_dataset_checks_sizes():
    with pytest.raises(AssertionError, match="Size mismatch between tensors"):  # (PyTorch's)
        D.TensorDataset(tg.ones(3), tg.ones(4))
    with pytest.raises(TypeError, match="expected tapegrad Tensors, got list"):
        D.TensorDataset([1, 2])


def test_training_loop_runs_unchanged():
    """A PyTorch-style loop: the loader's batches feed a model and an optimizer."""
    torch = tg
    from tapegrad.utils.data import DataLoader, TensorDataset
    torch.manual_seed(0)
    xs = torch.randn(64, 3)
    ys = xs @ torch.tensor([1.0, -2.0, 0.5]) + 0.1
    model = torch.nn.Linear(3, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    loader = DataLoader(TensorDataset(xs, ys), batch_size=16, shuffle=True,
                        generator=torch.Generator().manual_seed(0))
    for _ in range(30):
        for xb, yb in loader:
            opt.zero_grad()
            loss = ((model(xb).squeeze(1) - yb) ** 2).mean()
            loss.backward()
            opt.step()
    assert loss.item() < 1e-3
