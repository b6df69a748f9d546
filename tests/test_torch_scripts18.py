"""The gaps scripts s200-s239 (tests/torch_scripts/, run by test_torch_scripts13.py) found,
each against PyTorch: GradScaler on the CPU, SGD's state without momentum, container
operators, x[index] = v's node, floor division and the sign of zero in remainder and trunc,
error wordings (expand, broadcast, negative sizes, requires_grad), integer dtypes of sum and
prod, frexp of subnormals, and LU of rectangular matrices."""
import numpy as np
import pytest

import tapegrad as tg

pytestmark = pytest.mark.oracle


def _same(x, y):
    """Equal values, NaNs alike, and zeros of one sign."""
    x, y = np.asarray(x), np.asarray(y)
    assert x.dtype == y.dtype, (x.dtype, y.dtype)
    np.testing.assert_array_equal(x, y)
    keep = ~np.isnan(x) if x.dtype.kind == "f" else np.ones(x.shape, bool)
    np.testing.assert_array_equal(np.signbit(x)[keep], np.signbit(y)[keep])


# ---- GradScaler("cpu") scales, unscales, skips and backs off as PyTorch's --------------------
def _scaler_run(L):
    """What a scaled training loop shows: (its discrete facts, its float values)."""
    w = L.nn.Parameter(L.tensor([0.5, -0.25, 1.0]))
    opt = L.optim.SGD([w], lr=0.1)
    scaler = L.amp.GradScaler("cpu", init_scale=1024.0, growth_interval=2)
    facts, values = [scaler.is_enabled(), scaler.get_scale()], []
    x = L.tensor([[1.0, 2.0, 3.0], [0.5, -1.0, 2.0]])
    for step in range(6):
        opt.zero_grad()
        loss = ((x @ w - 1.0) ** 2).mean()
        scaled = scaler.scale(loss)
        facts.append((str(scaled.dtype), type(scaled.grad_fn).__name__))
        values.append(scaled.item())
        scaled.backward()
        if step in (2, 3):
            w.grad[1] = float("inf") if step == 2 else float("nan")
        if step % 2:
            scaler.unscale_(opt)
            values.extend(w.grad.tolist())
        facts.append((scaler.step(opt), scaler.get_scale()))
        scaler.update()
        facts.append((scaler.get_scale(), scaler.state_dict()))
        values.extend(w.tolist())
    scaler.update(new_scale=8.0)
    facts.append(scaler.get_scale())
    scaler.update(new_scale=L.tensor(4.0, dtype=L.float32))
    facts.append(scaler.get_scale())
    values.append(scaler.scale([loss, (loss * 2,)])[1][0].item())
    again = L.amp.GradScaler("cpu")
    facts.append(again.state_dict())
    again.load_state_dict(scaler.state_dict())
    facts.append((again.get_scale(), again.state_dict()))
    return facts, values


def test_cpu_grad_scaler_steps_as_pytorchs(torch_float64):
    (facts, values), (tfacts, tvalues) = _scaler_run(tg), _scaler_run(torch_float64)
    assert facts == tfacts
    np.testing.assert_allclose(values, tvalues, rtol=1e-12)


def test_cpu_grad_scaler_in_float32(torch_float64):
    runs = []
    for L in (tg, torch_float64):
        w = L.nn.Parameter(L.tensor([1.0, 2.0], dtype=L.float32))
        opt = L.optim.Adam([w], lr=0.1)
        scaler = L.cpu.amp.GradScaler(init_scale=2.0 ** 16)
        out = []
        for _ in range(3):
            opt.zero_grad()
            s = scaler.scale((w ** 3).sum())
            s.backward()
            scaler.step(opt)
            scaler.update()
            out.append((str(s.dtype), w.tolist(), scaler.get_scale()))
        runs.append(out)
    assert runs[0] == runs[1]


SCALER_MISUSE = {
    "unscale twice": lambda L, s, o: (s.unscale_(o), s.unscale_(o)),
    "unscale after step": lambda L, s, o: (s.step(o), s.unscale_(o)),
    "step twice": lambda L, s, o: (s.step(o), s.step(o)),
    "closure": lambda L, s, o: s.step(o, closure=lambda: None),
    "empty state dict": lambda L, s, o: s.load_state_dict({}),
}


@pytest.mark.parametrize("case", sorted(SCALER_MISUSE))
def test_cpu_grad_scaler_misuse_raises_as_pytorch(case, raises_as_torch):
    def call(L):
        w = L.nn.Parameter(L.ones(2))
        opt = L.optim.SGD([w], lr=0.1)
        s = L.amp.GradScaler("cpu")
        s.scale(w.sum()).backward()
        SCALER_MISUSE[case](L, s, opt)
    raises_as_torch(call)


def test_cpu_grad_scaler_without_scale_first(torch_float64):
    for name in ("unscale_", "update", "step"):
        msgs = []
        for L in (tg, torch_float64):
            s = L.amp.GradScaler("cpu")
            opt = L.optim.SGD([L.nn.Parameter(L.ones(1))], lr=0.1)
            with pytest.raises(AssertionError) as info:
                getattr(s, name)(*(() if name == "update" else (opt,)))
            msgs.append(str(info.value))
        assert msgs[0] == msgs[1]


def test_cuda_grad_scaler_stays_disabled():
    with pytest.warns(UserWarning, match="CUDA is not available"):
        s = tg.amp.GradScaler.__new__(tg.amp.GradScaler)
        tg.amp._warned.discard("GradScaler")
        s.__init__("cuda")
    loss = tg.tensor(2.0)
    assert not s.is_enabled() and s.scale(loss) is loss and s.state_dict() == {}


# ---- SGD without momentum keeps no per-parameter state -------------------------------------
def test_sgd_state_only_where_momentum(torch_float64):
    seen = []
    for L in (tg, torch_float64):
        a, b = L.nn.Parameter(L.ones(2)), L.nn.Parameter(L.ones(3))
        opt = L.optim.SGD([{"params": [a]}, {"params": [b], "momentum": 0.5}], lr=0.1)
        for _ in range(2):
            opt.zero_grad()
            ((a * 2).sum() + (b ** 2).sum()).backward()
            opt.step()
        sd = opt.state_dict()
        seen.append((sorted(sd["state"]), len(opt.state),
                     {k: {n: v.tolist() for n, v in s.items()} for k, s in sd["state"].items()}))
    assert seen[0] == seen[1]


# ---- container operators ----------------------------------------------------------------
def _containers(L):
    nn = L.nn
    r, t, s = nn.ReLU(), nn.Tanh(), nn.Sigmoid()
    seq = nn.Sequential(r, t)
    ml = nn.ModuleList([r, t, s])
    both = ml + nn.ModuleList([s])
    popped = ml.pop(1)
    popped_slice = ml.pop(slice(0, 1))
    seq3 = seq * 3
    seq2 = 2 * seq
    seq *= 2
    pd = nn.ParameterDict({"a": nn.Parameter(L.ones(1))})
    merged = {"b": nn.Parameter(L.zeros(1))} | pd
    pd |= {"c": L.zeros(2)}
    got = pd.setdefault("d", nn.Parameter(L.ones(3)))
    kept = pd.setdefault("a", None)
    last = pd.popitem()
    keys = pd.fromkeys(["x", "y"], L.ones(2))
    return [repr(both), repr(popped), repr(ml), repr(popped_slice), repr(seq3), repr(seq2),
            repr(seq), [m1 is m2 for m1, m2 in zip(seq3, seq3[2:])], type(merged).__name__,
            list(merged), list(reversed(pd)), got.shape, kept.shape, last[0], list(pd),
            type(keys).__name__, list(keys), keys["x"].requires_grad, len(seq)]


def test_container_operators_as_pytorch(torch_float64):
    assert _containers(tg) == _containers(torch_float64)


@pytest.mark.parametrize("factor", ["2", 0, -1, 1.5])
def test_sequential_bad_factor_raises_as_pytorch(factor, torch_float64):
    msgs = []
    for L in (tg, torch_float64):
        with pytest.raises((TypeError, ValueError)) as info:
            L.nn.Sequential(L.nn.ReLU()) * factor
        msgs.append((info.type, str(info.value).replace(  # (the class's module differs)
            "tapegrad.nn.modules.Sequential", "torch.nn.modules.container.Sequential")))
    assert msgs[0] == msgs[1]


# ---- x[index] = v on a tensor of the graph: IndexPutBackward0, else CopySlices --------------
SETITEM = {
    "int index, scalar": lambda L, q: q.__setitem__(L.tensor([0, 2]), 5.0),
    "list index": lambda L, q: q.__setitem__([0, 2], 5.0),
    "mask, scalar": lambda L, q: q.__setitem__(q > 2, 0.0),
    "mask, 0-d tensor": lambda L, q: q.__setitem__(q > 2, L.tensor(1.0)),
    "mask, tensor": lambda L, q: q.__setitem__(q > 2, L.tensor([7.0])),
    "full slice then index": lambda L, q: q.__setitem__((slice(None), L.tensor([1])), 3.0),
    "ellipsis then index": lambda L, q: q.__setitem__((Ellipsis, [0]), 3.0),
    "part slice then index": lambda L, q: q.__setitem__((slice(1, None), L.tensor([1])), 3.0),
    "int then index": lambda L, q: q.__setitem__((0, L.tensor([1])), 3.0),
    "None then index": lambda L, q: q.__setitem__((None, [0]), 3.0),
    "basic": lambda L, q: q.__setitem__(0, 3.0),
    "value with grad": lambda L, q: q.__setitem__([1], q[[2]] * 3),
}


@pytest.mark.parametrize("case", sorted(SETITEM))
def test_setitem_node_and_gradient_as_pytorch(case, torch_float64):
    seen = []
    for L in (tg, torch_float64):
        p = L.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]], requires_grad=True)
        q = p * 1
        SETITEM[case](L, q)
        name = q.grad_fn.name()
        (q * L.arange(1.0, 10.0).reshape(3, 3)).sum().backward()
        seen.append((name, q.tolist(), p.grad.tolist()))
    assert seen[0] == seen[1]


# ---- floor division, remainder, trunc: values and signs of zero as PyTorch's -----------------
_V = [-5.5, -2.0, -0.0, 0.0, 2.0, 5.5, np.inf, -np.inf, np.nan, 1e-30, -3.0, 7.0, 0.1, 0.3, 1.0]
DIVISION = {
    "floordiv": lambda L, a, b: a // b,
    "floor_divide": lambda L, a, b: L.floor_divide(a, b),
    "div floor": lambda L, a, b: L.div(a, b, rounding_mode="floor"),
    "div trunc": lambda L, a, b: L.div(a, b, rounding_mode="trunc"),
    "rfloordiv": lambda L, a, b: 3.0 // b,
    "floordiv number": lambda L, a, b: a // 0.1,
    "remainder": lambda L, a, b: L.remainder(a, b),
    "mod": lambda L, a, b: a % b,
    "rmod": lambda L, a, b: 2.5 % b,
    "mod number": lambda L, a, b: a % -2.0,
    "fmod": lambda L, a, b: L.fmod(a, b),
    "trunc": lambda L, a, b: L.trunc(a * b),
    "frac": lambda L, a, b: L.frac(a),
}


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("op", sorted(DIVISION))
def test_division_values_as_pytorch(op, dtype, torch_float64):
    a, b = np.repeat(_V, len(_V)), np.tile(_V, len(_V))
    got, want = (DIVISION[op](L, L.tensor(a, dtype=getattr(L, dtype)),
                              L.tensor(b, dtype=getattr(L, dtype))).numpy()
                 for L in (tg, torch_float64))
    _same(got, want)


@pytest.mark.parametrize("op", ["floordiv", "div floor", "div trunc", "trunc", "frac"])
def test_rounded_division_recorded_keeps_values_and_zero_gradient(op, torch_float64):
    a, b = np.repeat(_V, len(_V)), np.tile(_V, len(_V))
    seen = []
    for L in (tg, torch_float64):
        x = L.tensor(a, requires_grad=True)
        y = DIVISION[op](L, x, L.tensor(b))
        seen.append(y.detach().numpy())
        if op != "floordiv":  # (PyTorch's floor_divide has no derivative)
            (y * L.tensor(np.arange(a.size, dtype=float))).sum().backward()
            seen.append(x.grad.numpy())
            seen.append(y.grad_fn.name())
    _same(seen[0], seen[len(seen) // 2])
    if op != "floordiv":
        np.testing.assert_array_equal(seen[1], seen[4])
        assert seen[2] == seen[5]


@pytest.mark.parametrize("op", ["remainder", "mod", "mod number", "fmod"])
def test_remainders_recorded_keep_values_and_unit_gradient(op, torch_float64):
    # recorded, the composite x - q * y stands for the gradient; its values were 0.0 for
    # -0.0 and NaN for 5 % inf, where the unrecorded op (and PyTorch) give -0.0 and 5
    a, b = np.repeat(_V, len(_V)), np.tile(_V, len(_V))
    seen = []
    for L in (tg, torch_float64):
        x = L.tensor(a, requires_grad=True)
        y = DIVISION[op](L, x, L.tensor(b))
        y.sum().backward()
        seen += [y.detach().numpy(), x.grad.numpy()]
    _same(seen[0], seen[2])
    _same(seen[0], DIVISION[op](tg, tg.tensor(a), tg.tensor(b)).numpy())
    np.testing.assert_array_equal(seen[1], seen[3])  # the dividend's: 1, as PyTorch's


def test_one_over_a_tenth_floors_to_nine():
    assert (tg.tensor([1.0, 5.0]) // 0.1).tolist() == [9.0, 49.0]
    assert (1.0 // 0.1, 5.0 // 0.1) == (9.0, 49.0)  # (Python's, as PyTorch's)


def test_div_rounding_nodes_lead_to_tensor_operands_only(torch_float64):
    seen = []
    for L in (tg, torch_float64):
        x, y = L.tensor([3.0, -4.0], requires_grad=True), L.tensor([2.0, 3.0], requires_grad=True)
        outs = [L.div(x, 2.0, rounding_mode="floor"), L.div(x, y, rounding_mode="trunc"),
                L.trunc(x)]
        seen.append([(o.grad_fn.name(), [n is None for n, _ in o.grad_fn.next_functions])
                     for o in outs])
    assert seen[0] == seen[1]


# ---- error wordings ----------------------------------------------------------------------
@pytest.mark.parametrize("shapes", [((3, 2), (4, 3)), ((3, 2), (3, 4)), ((2,), (3, 3)),
                                    ((3, 1), (2, 4, 5))])
def test_expand_names_the_last_clashing_dim(shapes, torch_float64):
    a, b = shapes
    msgs = []
    for L in (tg, torch_float64):
        with pytest.raises(RuntimeError) as info:
            L.ones(*a).expand(*b)
        msgs.append(str(info.value))
    assert msgs[0].startswith(msgs[1]), msgs  # (PyTorch's words first, then the op)


@pytest.mark.parametrize("shapes", [((2, 3, 4), (3, 3)), ((3, 2), (4, 3)), ((5, 1, 4), (2, 3))])
def test_broadcast_error_names_the_last_clashing_dim(shapes, torch_float64):
    msgs = []
    for L in (tg, torch_float64):
        with pytest.raises(RuntimeError) as info:
            L.ones(*shapes[0]) * L.ones(*shapes[1])
        msgs.append(str(info.value))
    assert msgs[1] in msgs[0], msgs


@pytest.mark.parametrize("make", [
    lambda L: L.ones(-1), lambda L: L.empty(2, -3), lambda L: L.full((-1,), 2.0),
    lambda L: L.rand(-1), lambda L: L.randn(2, -1), lambda L: L.zeros(2, -3)])
def test_negative_sizes_worded_as_pytorch(make, torch_float64):
    msgs = []
    for L in (tg, torch_float64):
        with pytest.raises(RuntimeError) as info:
            make(L)
        msgs.append(str(info.value))
    assert msgs[1].rstrip(".") in msgs[0], msgs


def test_requires_grad_method_setter_and_factories_worded_as_pytorch(torch_float64):
    for call in (lambda L: L.ones(2, dtype=L.int64).requires_grad_(),
                 lambda L: setattr(L.ones(2, dtype=L.int64), "requires_grad", True),
                 lambda L: L.tensor([1, 2], requires_grad=True),
                 lambda L: L.arange(3, requires_grad=True),
                 lambda L: L.zeros(2, dtype=L.int64, requires_grad=True)):
        msgs = []
        for L in (tg, torch_float64):
            with pytest.raises(RuntimeError) as info:
                call(L)
            msgs.append(str(info.value))
        assert msgs[0].startswith(msgs[1]), msgs


def test_mean_of_integers_names_the_dtype_as_pytorch(torch_float64):
    msgs = []
    for L in (tg, torch_float64):
        with pytest.raises(RuntimeError) as info:
            L.tensor([1, 2, 3]).mean()
        msgs.append(str(info.value))
    assert msgs[0].startswith(msgs[1]), msgs


# ---- reductions keep the dtype asked for -------------------------------------------------
REDUCE_DTYPE = {
    "sum int8": lambda L, t: t.sum(dtype=L.int8),
    "sum int8 wraps": lambda L, t: (t * 50).sum(dtype=L.int8),
    "sum int16 dim": lambda L, t: L.sum(t, 0, keepdim=True, dtype=L.int16),
    "sum bool": lambda L, t: (t > 1).sum(dtype=L.bool),
    "sum bool dim": lambda L, t: (t > 1).reshape(3, 1).sum(1, dtype=L.bool),
    "sum default": lambda L, t: t.sum(),
    "prod int8": lambda L, t: t.prod(dtype=L.int8),
    "prod int16 dim": lambda L, t: t.prod(0, dtype=L.int16),
    "prod float32": lambda L, t: t.prod(dtype=L.float32),
    "prod default": lambda L, t: t.prod(),
    "nanmean float32": lambda L, t: t.double().nanmean(dtype=L.float32),
    "nansum float32": lambda L, t: t.double().nansum(dtype=L.float32),
    "mean float64 of float32": lambda L, t: t.float().mean(dtype=L.float64),
}


@pytest.mark.parametrize("case", sorted(REDUCE_DTYPE))
def test_reduction_dtype_as_pytorch(case, torch_float64):
    got, want = (REDUCE_DTYPE[case](L, L.tensor([1, 2, 3], dtype=L.int8))
                 for L in (tg, torch_float64))
    assert str(got.dtype) == str(want.dtype) and got.shape == want.shape
    assert got.tolist() == want.tolist()


# ---- frexp of subnormals ------------------------------------------------------------------
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_frexp_of_subnormals_as_pytorch(dtype, torch_float64):
    x = [8.0, 0.3, -5.0, 0.0, 1e-310, -4e-320, 1e-40, 1e-6, np.inf, np.nan, 1e300]
    seen = []
    for L in (tg, torch_float64):
        t = L.tensor(x, dtype=getattr(L, dtype))
        m, e = L.frexp(t)
        seen.append((m.numpy(), e.numpy()))
    _same(seen[0][0], seen[1][0])
    _same(seen[0][1], seen[1][1])


def test_frexp_gradient_of_a_subnormal():
    x = tg.tensor([1e-310, 3.0], requires_grad=True)
    tg.frexp(x).mantissa.sum().backward()
    _, e = np.frexp(np.array([1e-310, 3.0]))
    np.testing.assert_allclose(x.grad.numpy(), 2.0 ** -e.astype(float))


# ---- LU of rectangular matrices ------------------------------------------------------------
LU_SHAPES = [(3, 3), (3, 2), (2, 3), (2, 4, 3), (2, 3, 5), (4, 1), (1, 4)]


@pytest.mark.parametrize("shape", LU_SHAPES)
def test_rectangular_lu_and_gradient_as_pytorch(shape, torch_float64):
    rng = np.random.default_rng(sum(shape))
    a = rng.standard_normal(shape)
    k = min(shape[-2:])
    wl = rng.standard_normal(shape[:-1] + (k,))
    wu = rng.standard_normal(shape[:-2] + (k, shape[-1]))
    wp = rng.standard_normal(shape)
    seen = []
    for L in (tg, torch_float64):
        A = L.tensor(a, requires_grad=True)
        P, lo, up = L.linalg.lu(A)
        LU, piv = L.linalg.lu_factor(A)
        ((lo * L.tensor(wl)).sum() + (up * L.tensor(wu)).sum() +
         (LU * L.tensor(wp)).sum()).backward()
        P2, lo2, up2 = L.lu_unpack(LU, piv)
        seen.append([t.detach().numpy() for t in (P, lo, up, LU, piv, A.grad, P2, lo2, up2)] +
                    [lo.grad_fn.name(), L.linalg.lu_factor_ex(A).info.tolist()])
    for x, y in zip(*seen, strict=True):
        if isinstance(x, np.ndarray):
            assert x.shape == y.shape
            np.testing.assert_allclose(x, y, rtol=1e-10, atol=1e-12)
        else:
            assert x == y


@pytest.mark.parametrize("shape", [(4, 2), (2, 4), (3, 3)])
def test_rectangular_lu_gradient_by_finite_differences(shape):
    rng = np.random.default_rng(7)
    a, w = rng.standard_normal(shape), rng.standard_normal(shape)

    def f(v):
        return float((tg.linalg.lu_factor(tg.tensor(v))[0] * tg.tensor(w)).sum())
    A = tg.tensor(a, requires_grad=True)
    (tg.linalg.lu_factor(A)[0] * tg.tensor(w)).sum().backward()
    fd = np.zeros_like(a)
    for i in np.ndindex(*a.shape):
        e = np.zeros_like(a)
        e[i] = 1e-6
        fd[i] = (f(a + e) - f(a - e)) / 2e-6
    np.testing.assert_allclose(A.grad.numpy(), fd, atol=1e-6)
