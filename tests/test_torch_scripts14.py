"""The gaps found by the second round of outsiders' scripts (tests/torch_scripts/s40_*
and up, run by tests/test_torch_scripts13.py), each checked against PyTorch."""
import numpy as np
import pytest

import tapegrad as tg

SIZE_KEYWORD = [lambda L: L.zeros(size=(2, 1)), lambda L: L.ones(size=[3]),
                lambda L: L.empty(size=(0, 2)), lambda L: L.zeros(size=(2,), dtype=L.int64),
                lambda L: L.ones(size=(), requires_grad=True),
                lambda L: L.empty(2, 3, memory_format=L.contiguous_format, pin_memory=False)]


@pytest.mark.parametrize("make", SIZE_KEYWORD)
def test_creation_takes_size_by_keyword(make, torch):
    ours, theirs = make(tg), make(torch)
    assert tuple(ours.shape) == tuple(theirs.shape)
    assert ours.requires_grad == theirs.requires_grad
    assert str(ours.dtype).replace("64", "32") == str(theirs.dtype).replace("64", "32")


@pytest.mark.parametrize("call", [lambda L: L.zeros(2, foo=1), lambda L: L.ones(2, size=(3,)),
                                  lambda L: L.empty(1, size=(2,))])
def test_creation_refuses_a_second_size_or_an_unknown_keyword(call, raises_as_torch):
    raises_as_torch(call)


def _create_graph_grads(L):
    x = L.tensor([2.0, -1.0], dtype=L.float64, requires_grad=True)
    w = L.tensor([0.5, 3.0], dtype=L.float64, requires_grad=True)
    got = []
    for _ in range(2):  # the first is copied into .grad, the second added to it
        (x ** 3 * w).sum().backward(create_graph=True)
        got.append((type(x.grad.grad_fn).__name__, x.grad.tolist()))
    first = x.grad
    (x.grad * x).sum().backward()  # (through both: d/dx sum(2 * 3x^2 w * x) = 18 x^2 w)
    got.append(w.grad.tolist())
    v = L.tensor([1.0], dtype=L.float64, requires_grad=True)
    (v * 2).sum().backward(create_graph=True)  # a constant gradient: nothing recorded
    got.append((v.grad.grad_fn, v.grad.requires_grad, first.requires_grad))
    return got


def test_backward_with_create_graph_copies_the_first_gradient_into_grad(torch):
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # (the reference-cycle warning)
        ours, theirs = _create_graph_grads(tg), _create_graph_grads(torch)
    assert ours[:2] == theirs[:2] == [
        ("CopyBackwards", [6.0, 9.0]), ("AddBackward0", [12.0, 18.0])]
    np.testing.assert_allclose(ours[2], theirs[2], rtol=1e-14)
    assert ours[3] == theirs[3]


def test_a_copied_gradient_owns_its_values(torch):
    """.grad is a copy of the gradient the leaf's hook saw: writing into it leaves that one."""
    import warnings
    out = []
    for L in (tg, torch):
        x = L.tensor([1.0, 2.0], dtype=L.float64, requires_grad=True)
        seen = []
        x.register_hook(seen.append)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # (the reference-cycle warning)
            (x * x).sum().backward(create_graph=True)
        x.grad.data.zero_()
        nxt = [None if f is None else type(f).__name__
               for f, _ in x.grad.grad_fn.next_functions]
        out.append((seen[0].tolist(), x.grad.tolist(), type(x.grad.grad_fn).__name__, nxt,
                    x.grad.grad_fn.next_functions[1][0] is seen[0].grad_fn))
    assert out[0] == out[1] == ([2.0, 4.0], [0.0, 0.0], "CopyBackwards",
                                [None, "AddBackward0"], True)


@pytest.mark.parametrize("name", ["hann_window", "hamming_window", "blackman_window",
                                  "bartlett_window"])
@pytest.mark.parametrize("periodic", [True, False])
def test_windows_are_pytorchs_to_the_bit(name, periodic, torch):
    """PyTorch's formulas in its order (blackman's ends were -1.4e-17 and printed as -0.;
    bartlett's halves rounded apart)."""
    for n in range(12):
        ours = getattr(tg, name)(n, periodic=periodic, dtype=tg.float64).numpy()
        theirs = getattr(torch, name)(n, periodic=periodic, dtype=torch.float64).numpy()
        assert np.array_equal(ours, theirs) and np.array_equal(np.signbit(ours),
                                                               np.signbit(theirs)), n
    ours = tg.hamming_window(7, True, 0.6, 0.3, dtype=tg.float64)
    assert ours.tolist() == torch.hamming_window(7, True, 0.6, 0.3, dtype=torch.float64).tolist()


def _net(L):
    net = L.nn.Sequential(L.nn.Conv2d(1, 2, 3), L.nn.BatchNorm2d(2), L.nn.Flatten(),
                          L.nn.Linear(8, 3))
    net.heads = L.nn.ModuleDict({"cls": L.nn.Linear(3, 2), "reg": L.nn.Linear(3, 1)})
    return net


def test_module_stores_are_plain_dicts_as_pytorchs(torch):
    ours, theirs = _net(tg), _net(torch)
    for name in ("_modules", "_parameters", "_buffers"):
        assert type(getattr(ours, name)) is type(getattr(theirs, name)) is dict
    assert repr(ours.heads.keys()) == repr(theirs.heads.keys()) == "dict_keys(['cls', 'reg'])"
    assert type(ours.heads.values()).__name__ == type(theirs.heads.values()).__name__
    assert ours._get_name() == theirs._get_name() == "Sequential"


def test_get_name_names_the_module_in_its_repr(torch):
    for L in (tg, torch):
        class Renamed(L.nn.Module):
            def _get_name(self):
                return "Shown"
        m = Renamed()
        m.lin = L.nn.Linear(1, 1)
        assert repr(m).startswith("Shown(\n  (lin): Linear(") and repr(Renamed()) == "Shown()"


def _partial_loads(L):
    net = _net(L)
    got = []
    for drop_metadata in (True, False):
        sd = net.state_dict()
        partial = {k: v for k, v in sd.items() if k.startswith("3.")}
        if not drop_metadata:  # (an OrderedDict keeping the versions: nothing upgraded)
            partial = type(sd)(partial)
            partial._metadata = sd._metadata
        res = _net(L).load_state_dict(partial, strict=False)
        got.append((res.missing_keys, res.unexpected_keys))
    got.append(dict(net.state_dict()._metadata))
    return got


def test_state_dict_versions_and_the_batch_norm_upgrade(torch):
    """A state_dict without _metadata is a version-1 one: BatchNorm's num_batches_tracked
    is filled in (kept), never reported missing; with the versions it is."""
    ours, theirs = _partial_loads(tg), _partial_loads(torch)
    assert ours == theirs
    assert "1.num_batches_tracked" not in ours[0][0] and "1.num_batches_tracked" in ours[1][0]
    assert ours[2]["1"] == {"version": 2} and ours[2][""] == {"version": 1}


def test_batch_norm_upgrade_keeps_the_count_and_leaves_the_callers_dict():
    bn = tg.nn.BatchNorm1d(2)
    bn(tg.ones(4, 2))
    sd = {k: v.clone() for k, v in bn.state_dict().items() if k != "num_batches_tracked"}
    assert not bn.load_state_dict(sd).missing_keys
    assert bn.num_batches_tracked.item() == 1 and "num_batches_tracked" not in sd


def test_inference_tensor_refuses_requires_grad_outside_inference_mode(raises_as_torch, torch):
    def made_inside(L):
        with L.inference_mode():
            return L.ones(2)
    raises_as_torch(lambda L: made_inside(L).requires_grad_())
    raises_as_torch(lambda L: setattr(made_inside(L), "requires_grad", True))
    raises_as_torch(lambda L: L.nn.Parameter(made_inside(L)))
    for L in (tg, torch):
        with L.inference_mode():
            t = L.ones(2)
            assert t.requires_grad_().requires_grad  # (inside: allowed)
        assert not made_inside(L).requires_grad_(False).requires_grad
        assert L.ones(2).requires_grad_().requires_grad


def _lbfgs_state(L, line_search, max_iter):
    p = L.tensor([-1.5, 2.0], dtype=L.float64, requires_grad=True)
    opt = L.optim.LBFGS([p], lr=0.5, max_iter=max_iter, history_size=3,
                        line_search_fn=line_search)

    def closure():
        opt.zero_grad()
        loss = (1 - p[0]) ** 2 + 100 * (p[1] - p[0] ** 2) ** 2
        loss.backward()
        return loss
    opt.step(closure)
    st = opt.state[p]
    kinds = {k: type(v).__name__ if not isinstance(v, list) else
             [type(e).__name__ for e in v] for k, v in st.items()}
    return list(st), kinds, [p.tolist(), st["d"].tolist(), float(st["H_diag"]),
                             [float(v) for v in st["ro"]]], opt


@pytest.mark.parametrize("line_search", [None, "strong_wolfe"])
@pytest.mark.parametrize("max_iter", [1, 2, 8])
def test_lbfgs_state_holds_tensors_as_pytorchs(line_search, max_iter, torch):
    """d, H_diag, prev_flat_grad, the history lists and al are tensors (were ndarrays,
    which a state_dict could not save); al is history_size long."""
    *ours, opt = _lbfgs_state(tg, line_search, max_iter)
    *theirs, _ = _lbfgs_state(torch, line_search, max_iter)
    assert ours[:2] == theirs[:2]
    if max_iter > 1:
        np.testing.assert_allclose(ours[2][0], theirs[2][0], rtol=1e-12)
    import io
    buf = io.BytesIO()
    tg.save(opt.state_dict(), buf)
    buf.seek(0)
    q = tg.tensor([0.0, 0.0], requires_grad=True)
    again = tg.optim.LBFGS([q], lr=0.5, max_iter=max_iter, history_size=3,
                           line_search_fn=line_search)
    again.load_state_dict(tg.load(buf))
    assert again.state[q]["d"].tolist() == ours[2][1]


RANGES = [lambda L: L.arange(0, 5, 0), lambda L: L.arange(5, 0), lambda L: L.arange(0, 5, -1),
          lambda L: L.arange(0.0, float("inf")), lambda L: L.arange(float("nan")),
          lambda L: L.arange(1.5, -2.0, 0.5)]


@pytest.mark.parametrize("call", RANGES)
def test_arange_refuses_an_empty_or_endless_range_as_pytorch(call, raises_as_torch):
    raises_as_torch(call)


@pytest.mark.parametrize("args", [(0,), (3, 3), (5, 0, -2), (0.0, 1.0, 0.25), (2, -2, -1.5)])
def test_arange_of_a_consistent_range(args, torch):
    assert tg.arange(*args).tolist() == torch.arange(*args).tolist()


RAGGED = [[[1, 2], [3]], [[1, 2], 3], [[[1], [2]], [[3], [4, 5]]], [[1, 2], [3, 4, 5]],
          ([1.0, 2.0], (3.0,)), [[1, 2], [3, 4], [5]]]


@pytest.mark.parametrize("data", RAGGED)
@pytest.mark.parametrize("dtype", [None, "float32"])
def test_ragged_lists_raise_pytorchs_error(data, dtype, raises_as_torch):
    raises_as_torch(lambda L: L.tensor(data, dtype=getattr(L, dtype) if dtype else None))


def test_sequential_index_out_of_range(raises_as_torch):
    def seq(L):
        return L.nn.Sequential(L.nn.ReLU(), L.nn.Tanh())
    for call in (lambda L: seq(L)[2], lambda L: seq(L)[-3],
                 lambda L: seq(L).__setitem__(4, L.nn.ReLU()), lambda L: seq(L).__delitem__(9)):
        raises_as_torch(call)
    s = tg.nn.Sequential(tg.nn.ReLU(), tg.nn.Tanh())
    assert type(s[-1]).__name__ == "Tanh" and type(s[tg.tensor(0)]).__name__ == "ReLU"


def test_an_unused_input_is_named_by_its_index(torch):
    messages = []
    for L in (tg, torch):
        x, y = L.ones(2, requires_grad=True), L.ones(3, requires_grad=True)
        with pytest.raises(RuntimeError) as info:
            L.autograd.grad((x * 2).sum(), [x, y])
        messages.append(str(info.value))
    assert messages[0] == messages[1] and "index 1" in messages[0]


def test_numpy_force_reads_a_tensor_that_requires_grad(torch, raises_as_torch):
    for L in (tg, torch):
        a = L.tensor([2.0, 3.0], dtype=L.float64, requires_grad=True)
        n = a.numpy(force=True)
        n[0] = 9.0  # (shares the memory, as detach().numpy() does)
        assert a.tolist() == [9.0, 3.0] and a.detach().numpy(force=False).tolist() == [9.0, 3.0]
    raises_as_torch(lambda L: L.ones(2, requires_grad=True).numpy())
    raises_as_torch(lambda L: L.ones(2).numpy(force=1))


def _tie_heavy(seed):
    rng = np.random.default_rng(seed)
    for trial in range(60):  # (at most 8000 values: within std_sort.MAX_WORK)
        n = int(rng.integers(1, 300))
        rows = int(rng.integers(1, min(8000 // n, 30) + 1))
        shape = [(n,), (rows, n), (n, rows), (2, rows // 2 + 1, n // 2 + 1)][trial % 4]
        a = rng.integers(0, int(rng.integers(1, 5)), shape).astype(float)
        if trial % 3 == 0:
            a[rng.random(shape) < 0.2] = np.nan
        if trial % 5 == 0:  # (runs already in order: the pivots see equal keys)
            a = np.sort(a, axis=-1)
        yield a, int(rng.integers(-len(shape), len(shape)))


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("descending", [False, True])
def test_sort_orders_ties_as_pytorchs_std_sort(seed, descending, torch):
    """PyTorch's non-stable CPU sort is std::sort: ties in slices longer than 16 leave
    their input order (a stable argsort matched only up to 16)."""
    for a, dim in _tie_heavy(seed):
        for dtype in ("float64", "float32", "int64", "bool"):
            if dtype in ("int64", "bool") and np.isnan(a).any():
                continue
            x = a.astype(dtype)
            ours = tg.tensor(x).sort(dim=dim, descending=descending)
            theirs = torch.tensor(x).sort(dim=dim, descending=descending)
            assert np.array_equal(ours.indices.numpy(), theirs.indices.numpy())
            np.testing.assert_array_equal(ours.values.numpy(), theirs.values.numpy())
            assert np.array_equal(tg.argsort(tg.tensor(x), dim, descending).numpy(),
                                  theirs.indices.numpy())
            stable = tg.tensor(x).sort(dim=dim, descending=descending, stable=True)
            assert np.array_equal(stable.indices.numpy(), torch.tensor(x).sort(
                dim=dim, descending=descending, stable=True).indices.numpy())


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("largest", [True, False])
def test_topk_orders_ties_as_pytorchs_nth_element(seed, largest, torch):
    """PyTorch's topk is std::nth_element then a sort of the first k - 1 (std::partial_sort
    when k is at most 1/64 of the values); unsorted, the k come in nth_element's order."""
    rng = np.random.default_rng(seed)
    for a, dim in _tie_heavy(seed):
        n = a.shape[dim]
        for k in {1, n, int(rng.integers(1, n + 1)), max(1, n // 64)}:
            for sorted_ in (True, False):
                ours = tg.tensor(a).topk(k, dim, largest, sorted_)
                theirs = torch.tensor(a).topk(k, dim, largest, sorted_)
                assert np.array_equal(ours.indices.numpy(), theirs.indices.numpy())
                np.testing.assert_array_equal(ours.values.numpy(), theirs.values.numpy())


@pytest.mark.parametrize("seed", [0, 1])
def test_kthvalue_picks_among_ties_as_atens_quick_select(seed, torch):
    rng = np.random.default_rng(seed)
    for a, dim in _tie_heavy(seed):
        k = int(rng.integers(1, a.shape[dim] + 1))
        for x in (a, np.nan_to_num(a).astype(np.int64)):
            ours = tg.tensor(x).kthvalue(k, dim)
            theirs = torch.tensor(x).kthvalue(k, dim)
            assert np.array_equal(ours.indices.numpy(), theirs.indices.numpy())
            np.testing.assert_array_equal(ours.values.numpy(), theirs.values.numpy())


def test_sort_ties_route_the_gradient_as_pytorchs(torch):
    a = np.array([2.0, 1.0, 2.0, 0.0] * 6)
    w = np.arange(24.0)
    grads = []
    for L in (tg, torch):
        x = L.tensor(a, requires_grad=True)
        (x.sort(descending=True).values * L.tensor(w)).sum().backward()
        grads.append(x.grad.tolist())
    assert grads[0] == grads[1]


@pytest.mark.parametrize("op", [lambda x: x.sort().values, lambda x: x.topk(3).values,
                                lambda x: x.topk(17, sorted=False).values,
                                lambda x: x.reshape(4, 5).kthvalue(2, 1).values,
                                lambda x: x.reshape(2, 10).sort(1, descending=True).values])
def test_traced_sort_replays_as_eager_at_points_with_and_without_ties(op):
    """The trace keeps the traced point's order; its guard sends a replayed point with
    ties (whose std::sort order it cannot know) or another order to eager."""
    def f(x):
        return (op(x) * tg.arange(op(x).numel(), dtype=tg.float64).reshape(op(x).shape)).sum()
    tied = np.array([1.0, 0.0] * 10)
    distinct = np.linspace(-1, 1, 20) ** 3
    for at, others in ((tied, (distinct, tied[::-1].copy())), (distinct, (tied, -distinct))):
        trace = tg.trace(f, at)
        for x in others:
            want = f(tg.tensor(x)).item()
            try:
                got = trace.value_and_grad(x)[0]
            except tg.replay.DivergenceError:
                continue
            assert np.isclose(float(got), want, rtol=1e-12), (at, x)


def test_std_sort_beyond_its_budget_keeps_the_stable_order():
    from tapegrad.ops import std_sort
    n = std_sort.MAX_WORK + 1
    x = tg.tensor(np.zeros(n))
    assert np.array_equal(x.sort().indices.numpy(), np.arange(n))
