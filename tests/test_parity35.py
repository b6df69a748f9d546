"""Parity with PyTorch 2.13 (session 35): a saved constant (or detach()) changed in place
refuses backward, torch.complex's parts reach both inputs, weights_only's safe globals,
Module.share_memory, the issubclass relations among nn's layer classes, torch.signal.windows,
1-d poolings' second order, and torch.utils.data._utils.collate."""
import collections
import importlib
import inspect
import io
import pickle

import numpy as np
import pytest
import torch

import tapegrad as tg


@pytest.fixture(autouse=True)
def _float64(torch_float64):
    """torch's default dtype float64 (tapegrad's) in these tests only (conftest.py)."""


def _backward_error(T, case):
    w = T.ones(3, requires_grad=True)
    h = w * 1.0
    c = T.arange(3.0)
    if case == "detach, base written":
        z = (h.detach() * w).sum()
        h.mul_(2)
    elif case == "detach, detach written":
        y = h.detach()
        z = (y * w).sum()
        y.mul_(2)
    elif case == "detach of a view":
        y = h[1:].detach()
        z = (y * w[1:]).sum()
        h.mul_(2)
    elif case == "detach of a detach":
        z = (h.detach().detach() * w).sum()
        h[0].mul_(2)
    elif case == "constant":
        z = (c * w).sum()
        c.mul_(2)
    elif case == "constant, twice":
        z = (c * w).sum()
        c.mul_(2)
        c.add_(1)
    elif case == "constant, setitem":
        z = (c * w).sum()
        c[0] = 5
    elif case == "constant, no_grad copy_":
        z = T.dot(c, w)
        with T.no_grad():
            c.copy_(T.ones(3))
    elif case == "constant, recorded write":
        z = (c * w).sum()
        c.mul_(w)
    elif case == "constant not saved (add)":
        z = (c + w).sum()
        c.mul_(2)
    elif case == "constant, .data written":
        z = (c * w).sum()
        c.data.mul_(2)
    elif case == "constant, written then used":
        (c * w).sum()
        c.mul_(2)
        z = (c * w).sum()
    elif case == "scalar detach":
        s = T.tensor(2.0, requires_grad=True) * 1.0
        z = s.detach() * T.tensor(1.0, requires_grad=True)
        s.mul_(2)
    try:
        z.backward()
    except RuntimeError as e:
        return str(e).split(" Hint:")[0]
    return None


@pytest.mark.parametrize("case", [
    "detach, base written", "detach, detach written", "detach of a view",
    "detach of a detach", "constant", "constant, twice", "constant, setitem",
    "constant, no_grad copy_", "constant, recorded write", "constant not saved (add)",
    "constant, .data written", "constant, written then used", "scalar detach"])
def test_a_saved_constant_or_detach_written_in_place_refuses_backward(case):
    want = _backward_error(torch, case)
    assert _backward_error(tg, case) == want
    if case not in ("constant not saved (add)", "constant, .data written",
                    "constant, written then used"):
        assert want is not None and "is at version" in want  # (the oracle refuses these)


def _complex_grads(T, how):
    x = T.tensor([1.0, -2.0], requires_grad=True)
    y = T.tensor([0.5, 3.0], requires_grad=True)
    make, part = how
    if make == "complex":
        z = T.complex(x, y)
    elif make == "complex, y constant":
        z = T.complex(x, y.detach())
    elif make == "complex, broadcast":
        z = T.complex(x, y[:1])
    elif make == "to complex":
        z = x.to(T.complex128)
    elif make == "polar":
        z = T.polar(x.abs() + 0.1, y)
    else:
        z = T.view_as_complex(T.stack([x, y], -1))
    out = getattr(z, part)() if part in ("abs", "angle") else \
        T.view_as_real(z)[..., 0] if part == "view_as_real" else getattr(z, part)
    (out * T.tensor([1.0, 2.0])).sum().backward()
    return [None if t.grad is None else t.grad.tolist() for t in (x, y)]


@pytest.mark.parametrize("make", ["complex", "complex, y constant", "complex, broadcast",
                                  "to complex", "polar", "view_as_complex"])
@pytest.mark.parametrize("part", ["real", "imag", "abs", "angle", "view_as_real"])
def test_parts_of_a_complex_tensor_reach_both_inputs(make, part):
    want = _complex_grads(torch, (make, part))
    got = _complex_grads(tg, (make, part))
    for g, t in zip(got, want):
        assert (g is None) == (t is None)
        if t is not None:
            assert g == pytest.approx(t, abs=1e-12)


class _Kept:
    def __init__(self, a):
        self.a = a


def _load_round_trip(T, **kw):
    buf = io.BytesIO()
    T.save({"k": _Kept(T.ones(2))}, buf)
    buf.seek(0)
    try:
        return T.load(buf, **kw)["k"].a.tolist()
    except Exception as e:  # (tapegrad's UnpicklingError is a RuntimeError too)
        return isinstance(e, pickle.UnpicklingError), type(e).__mro__[-3].__name__, str(e)


def test_weights_only_load_honours_safe_globals():
    for T in (torch, tg):
        T.serialization.clear_safe_globals()
    try:
        refused = _load_round_trip(tg)
        assert refused == _load_round_trip(torch)
        assert refused[0] is True
        assert f"Unsupported global: GLOBAL {__name__}._Kept was not an allowed" in refused[2]
        for T in (torch, tg):
            with T.serialization.safe_globals([_Kept]) as entered:
                assert entered is None
                assert _Kept in T.serialization.get_safe_globals()
                assert _load_round_trip(T) == [1.0, 1.0]
            assert _Kept not in T.serialization.get_safe_globals()
            T.serialization.add_safe_globals([_Kept])
            assert _load_round_trip(T) == [1.0, 1.0]
            T.serialization.clear_safe_globals()
            assert T.serialization.get_safe_globals() == []
            assert _load_round_trip(T)[0] is True
            T.serialization.add_safe_globals([(_Kept,)])
        assert _load_round_trip(tg) == _load_round_trip(torch)  # (a malformed entry)
        for T in (torch, tg):
            T.serialization.clear_safe_globals()
            T.serialization.add_safe_globals([(_Kept, f"{__name__}._Kept")])
        assert _load_round_trip(tg) == _load_round_trip(torch) == [1.0, 1.0]
        with pytest.raises(TypeError):
            tg.serialization.add_safe_globals(_Kept)  # (not a list: PyTorch's TypeError)
    finally:
        for T in (torch, tg):
            T.serialization.clear_safe_globals()


def test_module_share_memory_returns_the_module():
    for T in (torch, tg):
        m = T.nn.Linear(2, 1)
        assert m.share_memory() is m


def _layer_classes(T):
    out = {}
    for name in dir(T.nn.modules):
        mod = getattr(T.nn.modules, name)
        if inspect.ismodule(mod):
            for k, v in vars(mod).items():
                if inspect.isclass(v):
                    out.setdefault(k, v)
    for k, v in vars(T.nn).items():
        if inspect.isclass(v):
            out.setdefault(k, v)
    return {k: v for k, v in out.items() if issubclass(v, T.nn.Module)}


def test_layer_classes_subclass_one_another_as_torchs_do():
    theirs, ours = _layer_classes(torch), _layer_classes(tg)
    common = sorted(set(theirs) & set(ours))
    assert len(common) > 170
    for base in ("_NormBase", "_BatchNorm", "_InstanceNorm", "_ConvNd", "_ConvTransposeNd",
                 "_Loss", "_WeightedLoss", "RNNBase", "RNNCellBase", "_AvgPoolNd",
                 "_MaxPoolNd", "_AdaptiveAvgPoolNd", "_AdaptiveMaxPoolNd", "_LPPoolNd",
                 "_MaxUnpoolNd", "_LazyNormBase", "_ReflectionPadNd", "_ConstantPadNd"):
        assert base in common
    wrong = [(a, b, issubclass(theirs[a], theirs[b])) for a in common for b in common
             if a != b and issubclass(theirs[a], theirs[b]) != issubclass(ours[a], ours[b])]
    assert wrong == []
    norm = tg.nn.InstanceNorm2d(3)
    assert not isinstance(norm, tg.nn.modules.batchnorm._BatchNorm)
    assert isinstance(norm, tg.nn.modules.batchnorm._NormBase)
    assert isinstance(tg.nn.LazyBatchNorm1d(), tg.nn.modules.batchnorm._BatchNorm)


@pytest.mark.parametrize("make", [
    lambda T: T.nn.AvgPool3d(2), lambda T: T.nn.AvgPool1d(2), lambda T: T.nn.Fold((4, 5), 2),
    lambda T: T.nn.LogSoftmax(1), lambda T: T.nn.Softmin(0), lambda T: T.nn.ZeroPad2d(1),
    lambda T: T.nn.LPPool2d(2, 2), lambda T: T.nn.AdaptiveMaxPool3d(1),
    lambda T: T.nn.InstanceNorm1d(3, affine=True), lambda T: T.nn.ReflectionPad1d(1)])
def test_rebased_layers_compute_as_torchs(make):
    ours, theirs = make(tg), make(torch)
    x = torch.rand(1, 4, 4, 4, 4) if "3d" in type(theirs).__name__ else \
        torch.rand(1, 3, 6) if type(theirs).__name__ in (
            "AvgPool1d", "InstanceNorm1d", "ReflectionPad1d") else \
        torch.rand(1, 8, 12) if type(theirs).__name__ == "Fold" else torch.rand(1, 2, 4, 4)
    assert ours(tg.tensor(x.numpy())).detach().numpy() == pytest.approx(
        theirs(x).detach().numpy(), abs=1e-12)


_WINDOWS = ["bartlett", "blackman", "cosine", "exponential", "gaussian", "general_hamming",
            "hamming", "hann", "kaiser", "nuttall"]


@pytest.mark.parametrize("name", _WINDOWS)
def test_signal_windows_are_torchs(name):
    for M in (0, 1, 2, 5, 8):
        for sym in (True, False):
            for dt in ("float64", "float32"):
                want = getattr(torch.signal.windows, name)(M, sym=sym, dtype=getattr(torch, dt))
                got = getattr(tg.signal.windows, name)(M, sym=sym, dtype=getattr(tg, dt))
                assert str(got.dtype) == str(want.dtype) and tuple(got.shape) == want.shape
                assert got.numpy() == pytest.approx(want.numpy(), abs=1e-6 if dt == "float32"
                                                    else 1e-13)
    assert str(getattr(tg.signal.windows, name)(3).dtype) == "torch.float64"  # (the default)
    got = getattr(tg.signal.windows, name)(4, requires_grad=True)
    want = getattr(torch.signal.windows, name)(4, requires_grad=True)
    assert (got.requires_grad, got.is_leaf) == (want.requires_grad, want.is_leaf)


def _window_error(T, case):
    w = T.signal.windows
    calls = {"negative M": lambda: w.hann(-1), "int dtype": lambda: w.hann(3, dtype=T.int64),
             "std 0": lambda: w.gaussian(3, std=0), "tau 0": lambda: w.exponential(3, tau=0),
             "symmetric center": lambda: w.exponential(3, center=1.0),
             "negative beta": lambda: w.kaiser(3, beta=-1),
             "no coefficients": lambda: w.general_cosine(3, a=[]),
             "a number": lambda: w.general_cosine(3, a=1.0),
             "sparse": lambda: w.hann(3, layout=T.sparse_coo),
             "periodic center": lambda: w.exponential(4, center=1.0, sym=False).tolist(),
             "general_cosine": lambda: w.general_cosine(5, a=[0.5, 0.3, 0.2]).tolist()}
    try:
        out = calls[case]()
    except (ValueError, TypeError) as e:
        return type(e).__name__, str(e)
    return pytest.approx(out, abs=1e-13) if T is tg else out


@pytest.mark.parametrize("case", ["negative M", "int dtype", "std 0", "tau 0",
                                  "symmetric center", "negative beta", "no coefficients",
                                  "a number", "sparse", "periodic center", "general_cosine"])
def test_signal_windows_arguments_and_errors_are_torchs(case):
    assert _window_error(tg, case) == _window_error(torch, case)


def _pool1d_second_order(T, name):
    F = T.nn.functional
    x = T.tensor([[[0.3, -1.2, 2.0, 0.7, -0.4, 1.1]]], requires_grad=True)
    pool = {"max_pool1d": lambda x: F.max_pool1d(x, 2),
            "avg_pool1d": lambda x: F.avg_pool1d(x, 2),
            "adaptive_max_pool1d": lambda x: F.adaptive_max_pool1d(x, 3),
            "adaptive_avg_pool1d": lambda x: F.adaptive_avg_pool1d(x, 3)}[name]
    y = pool(x)
    names = type(y.grad_fn).__name__, [type(f[0]).__name__ for f in y.grad_fn.next_functions]
    g, = T.autograd.grad(y.sum(), x, create_graph=True)
    g2, = T.autograd.grad(g.sum(), x)
    return names, g.tolist(), g.requires_grad, g2.tolist()


@pytest.mark.parametrize("name", ["max_pool1d", "avg_pool1d", "adaptive_max_pool1d",
                                  "adaptive_avg_pool1d"])
def test_1d_pooling_is_torchs_2d_node_squeezed_and_twice_differentiable(name):
    assert _pool1d_second_order(tg, name) == _pool1d_second_order(torch, name)


class _Box:
    def __init__(self, v):
        self.v = v


def _collated(T):
    C = importlib.import_module(f"{T.__name__}.utils.data._utils.collate")
    P = collections.namedtuple("P", "a b")
    out = []
    for batch in ([{"x": T.ones(2), "y": 1, "s": "a"}, {"x": T.zeros(2), "y": 2, "s": "b"}],
                  [(1.5, np.float32(2)), (2.5, np.float32(3))], [[True, 1], [False, 2]],
                  [P(np.ones(2), 3), P(np.zeros(2), 4)], [np.array(["a"])], [object()],
                  [[1], [1, 2]]):
        try:
            r = C.default_collate(batch)
            out.append({k: repr(v) for k, v in r.items()} if isinstance(r, dict) else repr(r))
        except (TypeError, RuntimeError) as e:
            out.append((type(e).__name__, str(e).split(" at 0x")[0]))
    boxes = dict(C.default_collate_fn_map)
    boxes[_Box] = lambda b, *, collate_fn_map: sum(x.v for x in b)
    out.append(repr(C.collate([[_Box(1), 2], [_Box(3), 4]], collate_fn_map=boxes)))
    out.append(repr(C.default_convert((np.ones(2), 1))))
    C.default_collate_fn_map[_Box] = boxes[_Box]  # (extending the default map, as PyTorch's
    try:  # documentation shows)
        out.append(repr(C.default_collate([_Box(1), _Box(2)])))
    finally:
        del C.default_collate_fn_map[_Box]
    return [o.replace("tapegrad", "torch") if isinstance(o, str) else o for o in out]


def test_utils_data_collate_module_is_torchs():
    assert _collated(tg) == _collated(torch)
    from tapegrad.utils.data._utils.collate import default_collate  # noqa: F401 (imports)


def _interpolate_error(T, call):
    F = T.nn.functional
    x = T.ones(1, 2, 4)
    try:
        {"bilinear, no size": lambda: F.upsample_bilinear(x),
         "bilinear 3d, size": lambda: F.interpolate(x, size=(3, 3), mode="bilinear"),
         "trilinear 3d, two sizes": lambda: F.interpolate(x, size=3, scale_factor=2.0,
                                                          mode="trilinear"),
         "linear 4d, no size": lambda: F.interpolate(x[None], mode="linear")}[call]()
    except (ValueError, NotImplementedError, RuntimeError) as e:
        return type(e).__name__, str(e)
    return None


@pytest.mark.parametrize("call", ["bilinear, no size", "bilinear 3d, size",
                                  "trilinear 3d, two sizes", "linear 4d, no size"])
def test_interpolate_checks_sizes_before_the_modes_dims_as_torch(call):
    assert _interpolate_error(tg, call) == _interpolate_error(torch, call)


# ---- histc: PyTorch's bin of a value, floor((x - min) * bins / (max - min)) in its dtype --
# (np.histogram's comparison with rounded edges put 0.3 in bin 2 of 10 over [0, 1])
HISTC_RANGES = [(0, 1), (0, 0), (-1, 3), (0.1, 0.7), (2, 2)]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("kind", ["tenths", "integers", "normal"])
def test_histc_bins_values_on_edges_as_pytorch(dtype, kind, torch_float64):
    torch = torch_float64
    rng = np.random.default_rng(["tenths", "integers", "normal"].index(kind))
    for trial in range(60):
        n, bins = int(rng.integers(0, 30)), int(rng.integers(1, 20))
        x = {"tenths": lambda: np.round(rng.uniform(-1, 2, n), 1),
             "integers": lambda: rng.integers(-3, 8, n).astype(float),
             "normal": lambda: rng.normal(size=n)}[kind]().astype(dtype)
        lo, hi = HISTC_RANGES[trial % len(HISTC_RANGES)]
        want = torch.histc(torch.from_numpy(x.copy()), bins=bins, min=lo, max=hi)
        got = tg.histc(tg.tensor(x), bins=bins, min=lo, max=hi)
        assert str(got.dtype) == str(want.dtype)
        assert got.tolist() == want.tolist(), (x, bins, lo, hi)


@pytest.mark.parametrize("x, lo, hi", [([1.0, float("inf")], 0, 0), ([1.0, 2.0], 0, float("inf")),
                                       ([-float("inf"), 0.5], 0, 0), ([1.0, 2.0], -1e6, 3.5)])
def test_histc_refuses_a_range_that_is_not_finite_as_pytorch(x, lo, hi, torch_float64):
    torch = torch_float64
    said = []
    for L in (tg, torch):
        try:
            said.append(L.histc(L.tensor(x), 4, min=lo, max=hi).tolist())
        except RuntimeError as e:
            said.append(str(e).splitlines()[0])
    assert said[0] == said[1]


@pytest.mark.parametrize("shape", [(), (3,), (2, 3), (1, 2, 0)])
def test_dense_tensor_sparse_and_dense_dims_as_pytorch(shape, torch_float64):
    torch = torch_float64
    got = [(L.zeros(shape).sparse_dim(), L.zeros(shape).dense_dim()) for L in (tg, torch)]
    assert got[0] == got[1]
