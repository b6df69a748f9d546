"""Differences from PyTorch found by the scripts s1781 onward (tests/torch_scripts/, run by
test_torch_scripts13.py), each against PyTorch."""
import argparse
import collections
import fractions
import math
import os
import re

import numpy as np
import pytest

import tapegrad as tg

pytestmark = pytest.mark.oracle


def _outcome(call):
    try:
        out = call()
    except Exception as e:  # (compared: the same type and words)
        return type(e).__name__, str(e)
    return out


# ---- torch.signal.windows: each window, both dtypes, symmetric and periodic ------------
WINDOWS = [("bartlett", {}), ("blackman", {}), ("cosine", {}), ("hamming", {}),
           ("hann", {}), ("nuttall", {}), ("gaussian", {"std": 1.7}),
           ("exponential", {"tau": 2.5}), ("kaiser", {"beta": 6.0}), ("kaiser", {}),
           ("general_cosine", {"a": [0.5, 0.3, 0.2]}), ("general_hamming", {"alpha": 0.6})]


@pytest.mark.parametrize("name,kw", WINDOWS)
@pytest.mark.parametrize("sym", [True, False])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_signal_windows_as_pytorch(name, kw, sym, dtype, torch_float64):
    torch = torch_float64
    for M in (0, 1, 2, 5, 8, 13):
        got = []
        for L in (tg, torch):
            w = getattr(L.signal.windows, name)(M, sym=sym, dtype=getattr(L, dtype), **kw)
            got.append((str(w.dtype), tuple(w.shape), w.requires_grad))
            got.append(w.detach().numpy())
        assert got[0] == got[2]
        # (float32: PyTorch's i0 rounds in float32, ours in float64 then once: an ulp)
        np.testing.assert_allclose(got[1], got[3], rtol=1.5e-6 if dtype == "float32" else 0,
                                   atol=4e-7 if dtype == "float32" else 1e-15)


@pytest.mark.parametrize("call", [
    lambda W, L: W.hann(-1), lambda W, L: W.hann(4, dtype=L.int64),
    lambda W, L: W.bartlett(3, dtype=L.float16), lambda W, L: W.gaussian(4, std=0.0),
    lambda W, L: W.exponential(4, tau=-1.0), lambda W, L: W.exponential(4, center=1.0),
    lambda W, L: W.kaiser(4, beta=-1.0), lambda W, L: W.general_cosine(4, a=[]),
    lambda W, L: W.general_cosine(4, a=3.0), lambda W, L: W.blackman(-2),
    lambda W, L: W.exponential(5, center=1.0, sym=False).tolist(),
    lambda W, L: W.cosine(1).tolist(), lambda W, L: W.general_cosine(0, a=[]).tolist(),
])
def test_signal_windows_refuse_as_pytorch(call, torch_float64):
    torch = torch_float64
    assert _outcome(lambda: call(tg.signal.windows, tg)) == \
        _outcome(lambda: call(torch.signal.windows, torch))


def test_signal_window_with_requires_grad_is_an_op_result(torch_float64):
    torch = torch_float64
    got = []
    for L in (tg, torch):
        w = L.signal.windows.hann(6, requires_grad=True)
        got.append((w.requires_grad, w.is_leaf, type(w.grad_fn).__name__))
    assert got[0] == got[1]


# ---- transforms compare as PyTorch's (by class or parameters; unhashable) -------------
TRANSFORM_PAIRS = [
    lambda T, L: (T.ExpTransform(), T.ExpTransform()),
    lambda T, L: (T.ExpTransform(), T.SigmoidTransform()),
    lambda T, L: (T.ExpTransform().inv, T.ExpTransform().inv),
    lambda T, L: (T.ExpTransform().inv, T.ExpTransform()),
    lambda T, L: (T.SigmoidTransform(), T.SigmoidTransform(cache_size=1)),
    lambda T, L: (T.TanhTransform(), T.TanhTransform()),
    lambda T, L: (T.SoftplusTransform(), T.SoftplusTransform()),
    lambda T, L: (T.AbsTransform(), T.AbsTransform()),
    lambda T, L: (T.AffineTransform(1.0, 2.0), T.AffineTransform(1.0, 2.0)),
    lambda T, L: (T.AffineTransform(1.0, 2.0), T.AffineTransform(1.0, 3.0)),
    lambda T, L: (T.AffineTransform(L.tensor([1.0, 2.0]), 2.0),
                  T.AffineTransform(L.tensor([1.0, 2.0]), 2.0)),
    lambda T, L: (T.AffineTransform(L.tensor([1.0, 2.0]), 2.0),
                  T.AffineTransform(L.tensor([1.0, 5.0]), 2.0)),
    lambda T, L: (T.PowerTransform(L.tensor(2.0)), T.PowerTransform(L.tensor(2.0))),
    lambda T, L: (T.PowerTransform(2.0), T.PowerTransform(3.0)),
    lambda T, L: (T.ComposeTransform([T.ExpTransform(), T.AffineTransform(0.0, 2.0)]),
                  T.ComposeTransform([T.ExpTransform(), T.AffineTransform(0.0, 2.0)])),
    lambda T, L: (T.ComposeTransform([T.ExpTransform()]), T.ComposeTransform([])),
    lambda T, L: (T.identity_transform, T.ComposeTransform([])),
    lambda T, L: (T.SoftmaxTransform(), T.SoftmaxTransform()),
    lambda T, L: (T.StickBreakingTransform(), T.StickBreakingTransform()),
    lambda T, L: (T.LowerCholeskyTransform(), T.LowerCholeskyTransform()),
    lambda T, L: (T.PositiveDefiniteTransform(), T.PositiveDefiniteTransform()),
    lambda T, L: (T.CorrCholeskyTransform(), T.CorrCholeskyTransform()),
    lambda T, L: (T.ReshapeTransform((4,), (2, 2)), T.ReshapeTransform((4,), (2, 2))),
]


@pytest.mark.parametrize("make", range(len(TRANSFORM_PAIRS)))
def test_transforms_compare_as_pytorch(make, torch_float64):
    torch = torch_float64
    got = []
    for L in (tg, torch):
        a, b = TRANSFORM_PAIRS[make](L.distributions.transforms, L)
        got.append((a == b, a != b, b == a, a == a, a == 1,
                    _outcome(lambda: hash(a) and "hashable")))
    assert got[0] == got[1]


# ---- Module.type: every parameter, buffer and grad cast (integer buffers too) ----------
@pytest.mark.parametrize("dst", ["float32", "float64", "torch.FloatTensor",
                                 "torch.DoubleTensor"])
def test_module_type_casts_as_pytorch(dst, torch_float64):
    torch = torch_float64
    got = []
    for L in (tg, torch):
        model = L.nn.Sequential(L.nn.Linear(3, 2), L.nn.BatchNorm1d(2))
        model(L.ones(4, 3)).sum().backward()
        back = model.type(getattr(L, dst) if "." not in dst else dst)
        got.append((back is model,
                    [(n, str(p.dtype), str(p.grad.dtype), type(p).__name__)
                     for n, p in model.named_parameters()],
                    [(n, str(b.dtype)) for n, b in model.named_buffers()]))
    assert got[0] == got[1]


# ---- assert_close: two 0-dim tensors fail as scalars; msg= callable; complex numbers ---
CLOSE_CASES = [
    lambda L: (L.tensor(2.0), L.tensor(2.5), {}),
    lambda L: (L.tensor(2.0, dtype=L.float32), L.tensor(2.5, dtype=L.float32), {}),
    lambda L: (L.tensor(1e30, dtype=L.float32), L.tensor(2e30, dtype=L.float32), {}),
    lambda L: (L.tensor(2), L.tensor(3), {}),
    lambda L: (L.tensor(True), L.tensor(False), {}),
    lambda L: (L.tensor(0.5), L.tensor(0.0), {}),
    lambda L: (L.tensor(float("nan")), L.tensor(1.0), {}),
    lambda L: (L.tensor(2.0), L.tensor(2.5), {"rtol": 0.0, "atol": 0.0}),
    lambda L: (L.tensor(2.0), L.tensor(2.5), {"msg": "mine"}),
    lambda L: (L.tensor(2.0), L.tensor(2.5), {"msg": lambda m: m + " | extra"}),
    lambda L: (L.tensor([2.0]), L.tensor([2.5]), {"msg": lambda m: "<" + m + ">"}),
    lambda L: ([L.tensor(1.0), L.tensor(2.0)], [L.tensor(1.0), L.tensor(2.5)], {}),
    lambda L: ({"a": L.tensor(1.0)}, {"a": L.tensor(3.0)}, {"msg": lambda m: m.upper()}),
    lambda L: (1.0, 1.5, {"msg": lambda m: m[:20]}),
    lambda L: (1 + 2j, 1 + 3j, {}),
    lambda L: (1 + 2j, 1 + 2j, {}),
    lambda L: (complex("nan"), complex("nan"), {"equal_nan": True}),
    lambda L: (2, 3, {}),
    lambda L: (L.tensor([1.0, 2.0]), L.tensor([1.0, 3.0]), {"msg": lambda m: m}),
]


@pytest.mark.parametrize("case", range(len(CLOSE_CASES)))
def test_assert_close_messages_as_pytorch(case, torch_float64):
    torch = torch_float64
    got = []
    for L in (tg, torch):
        a, e, kw = CLOSE_CASES[case](L)
        got.append(_outcome(lambda: L.testing.assert_close(a, e, **kw)))
    assert got[0] == got[1]


# ---- load(weights_only=True) of a pickle: PyTorch's allowed globals, add_safe_globals ---
def _pickled_objects():
    return [
        (lambda L: {"cfg": argparse.Namespace(lr=0.1, layers=[2, 3]), "w": L.ones(2)},
         [argparse.Namespace]),
        (lambda L: {"cfg": argparse.Namespace(lr=0.1)}, [(argparse.Namespace,
                                                          "argparse.Namespace")]),
        (lambda L: [fractions.Fraction(1, 3), collections.OrderedDict(a=1)],
         [fractions.Fraction]),
        (lambda L: {"f": math.sqrt, "c": collections.Counter("aab")}, [math.sqrt]),
        (lambda L: {"s": {1, 2}, "n": argparse.Namespace(), "c": 1 + 2j},
         [argparse.Namespace]),
        (lambda L: [os.getcwd], []),
    ]


@pytest.mark.parametrize("case", range(6))
@pytest.mark.parametrize("allow", ["none", "add", "context", "wrong"])
def test_weights_only_load_allows_safe_globals_as_pytorch(case, allow, tmp_path,
                                                          torch_float64):
    torch = torch_float64
    make, safe = _pickled_objects()[case]
    got = []
    for L in (tg, torch):
        path = str(tmp_path / f"{L.__name__}.pt")
        L.save(make(L), path)
        S = L.serialization
        before = S.get_safe_globals()  # (PyTorch's own: NestedTensor's...; restored after)
        try:
            if allow == "add":
                S.add_safe_globals(safe)
            elif allow == "wrong":
                S.add_safe_globals([fractions.Fraction, (fractions.Fraction, "no.Such")])
            with S.safe_globals(safe if allow == "context" else []):
                out = _outcome(lambda: L.load(path, weights_only=True))
                inside = len(S.get_safe_globals()) - len(before)
            after = len(S.get_safe_globals()) - len(before)
        finally:
            S.clear_safe_globals()
            S.add_safe_globals(before)
        if isinstance(out, tuple) and len(out) == 2 and isinstance(out[1], str):
            said = re.search(r"Unsupported global: GLOBAL \S+|Trying to load unsupported "
                             r"GLOBAL \S+ whose module \S+ is blocked", out[1])
            out = (out[0] in ("UnpicklingError", "WeightsOnlyError"), said and said.group())
        else:
            out = repr(out).replace("tensor([1., 1.])", "T")
        got.append((out, inside, after))
    assert got[0] == got[1]


def test_safe_globals_refuse_bad_pairs_as_pytorch(tmp_path, torch_float64):
    torch = torch_float64
    got = []
    for L in (tg, torch):
        path = str(tmp_path / f"{L.__name__}.pt")
        L.save({"a": argparse.Namespace()}, path)
        before = L.serialization.get_safe_globals()
        for bad in [(argparse.Namespace, "x", 1), (argparse.Namespace, 3)]:
            L.serialization.add_safe_globals([bad])
            got.append(_outcome(lambda: L.load(path, weights_only=True)))
            L.serialization.clear_safe_globals()
            L.serialization.add_safe_globals(before)
    assert got[:2] == got[2:]


# ---- register_parametrization: PyTorch's checks (a right_inverse may change the shape) --
def _parametrizations(nn):
    class Rows(nn.Module):
        def forward(self, X):
            return X[:2]

    class Flat(nn.Module):  # stores the matrix as a vector: right_inverse changes the shape
        def forward(self, v):
            return v.reshape(4, 3)

        def right_inverse(self, A):
            return A.flatten()

    class Lower(nn.Module):
        def forward(self, X):
            return X

        def right_inverse(self, A):
            return A.float()

    class BadInverse(nn.Module):
        def forward(self, X):
            return X * 2

        def right_inverse(self, A):
            return A[:1]

    class Pair(nn.Module):
        def forward(self, X):
            return X, X

    return [lambda: Rows(), lambda: Flat(), lambda: Lower(), lambda: BadInverse(),
            lambda: Pair()]


@pytest.mark.parametrize("first", range(5))
@pytest.mark.parametrize("second", [None, *range(5)])
@pytest.mark.parametrize("unsafe", [False, True])
def test_register_parametrization_checks_as_pytorch(first, second, unsafe, torch_float64):
    torch = torch_float64
    got = []
    for L in (tg, torch):
        P = L.nn.utils.parametrize
        makers = _parametrizations(L.nn)
        m = L.nn.Linear(3, 4)

        def run():
            P.register_parametrization(m, "weight", makers[first](), unsafe=unsafe)
            if second is not None:
                P.register_parametrization(m, "weight", makers[second](), unsafe=unsafe)
            w = m.weight
            return (tuple(w.shape) if hasattr(w, "shape") else type(w).__name__,
                    sorted((k, tuple(v.shape)) for k, v in m.state_dict().items()))
        got.append(_outcome(run))
    assert got[0] == got[1]


# ---- hessian / hvp / vhp: PyTorch's checks of the function's output, in its order ------
HESS_CALLS = [
    lambda F, x: F.hessian(lambda t: t * 2, x),
    lambda F, x: F.hessian(lambda t: (t.sum(), t.sum()), x),
    lambda F, x: F.hessian(lambda t: t.sum().detach(), x, strict=True),
    lambda F, x: F.hessian(lambda t: (t * 2).detach(), x, strict=True),
    lambda F, x: F.hessian(lambda t: t.pow(3).sum(), x),
    lambda F, x: F.hvp(lambda t: t * 2, x, x),
    lambda F, x: F.vhp(lambda t: (t.sum(), t.sum()), x, x),
    lambda F, x: F.vhp(lambda t: t.pow(2), x, x),
    lambda F, x: F.hvp(lambda t: t.pow(3).sum(), x, x),
    lambda F, x: F.vhp(lambda t: t.sum().detach() * 0 + 1, x, x, strict=True),
    lambda F, x: F.hvp(lambda t: t.pow(3).sum(), x),
    lambda F, x: F.vhp(lambda t: t.pow(3).sum(), x[:1]),
    lambda F, x: F.hvp(lambda a, b: (a * b).sum(), (x[:1], x[1:])),
    lambda F, x: F.jvp(lambda t: t * 2, x),
    lambda F, x: F.jvp(lambda t: t * 2, x[:1]),
    lambda F, x: F.jvp(lambda a, b: a * b, (x[:1], x[1:])),
    lambda F, x: F.vjp(lambda t: (t.sum(), t.sum()), x),
    lambda F, x: F.vjp(lambda t: t * 2, x),
    lambda F, x: F.vjp(lambda t: t.sum(), x),
]


@pytest.mark.parametrize("call", range(len(HESS_CALLS)))
def test_hessian_products_check_outputs_as_pytorch(call, torch_float64):
    torch = torch_float64
    got = []
    for L in (tg, torch):
        out = _outcome(lambda: HESS_CALLS[call](L.autograd.functional,
                                                L.tensor([1.0, 2.0])))
        got.append(out if isinstance(out, tuple) and isinstance(out[0], str) else
                   repr(out).replace("tensor", "T"))
    assert got[0] == got[1]


# ---- Uniform's arg_constraints: each bound by the other, as PyTorch's --------------------
UNIFORM_ARGS = [lambda L: (1.0, 0.0), lambda L: (0.0, 0.0), lambda L: (0.0, 1.0),
                lambda L: (L.tensor([0.0, 1.0]), L.tensor([1.0, 0.5])),
                lambda L: (L.tensor([0.0, 1.0]), 2.0), lambda L: (L.tensor(-1.0), L.tensor(3.0))]


@pytest.mark.parametrize("args", range(len(UNIFORM_ARGS)))
def test_uniform_arg_constraints_as_pytorch(args, torch_float64):
    torch = torch_float64
    got = []
    for L in (tg, torch):
        low, high = UNIFORM_ARGS[args](L)
        made = _outcome(lambda: L.distributions.Uniform(low, high))
        if isinstance(made, tuple):
            got.append(made)
        else:
            got.append((repr(made.arg_constraints), repr(made),
                        repr(L.distributions.Uniform(high, low, validate_args=False).mean)))
    assert got[0] == got[1]


# ---- from_numpy refuses negative strides, in PyTorch's words ----------------------------
@pytest.mark.parametrize("make", [lambda: np.arange(4.0)[::-1],
                                  lambda: np.arange(8.0).reshape(2, 4)[:, ::-2],
                                  lambda: np.flip(np.eye(2), 0), lambda: np.arange(6.0)[::2],
                                  lambda: np.arange(6.0).reshape(2, 3).T])
def test_from_numpy_negative_strides_as_pytorch(make, torch_float64):
    torch = torch_float64
    got = [_outcome(lambda: L.from_numpy(make()).tolist()) for L in (tg, torch)]
    assert got[0] == got[1]


# ---- as_strided: the result's stride() and storage_offset() are the ones asked for -----
STRIDED = [((3, 2), (1, 3), 0), ((2, 2), (1, 2), 1), ((2, 1, 2), (1, 5, 2), 1),
           ((2, 3), (3, 1), 0), ((4,), (0,), 2), ((2, 2), (2, 2), 0)]  # (not an empty one:
# its strides stay row-major, (2, 1) for PyTorch's (1, 1) at size (0, 2))


@pytest.mark.parametrize("size,stride,offset", STRIDED)
def test_as_strided_reports_its_strides_as_pytorch(size, stride, offset, torch_float64):
    torch = torch_float64
    got = []
    for L in (tg, torch):
        base = L.arange(12.0)
        y = base.as_strided(size, stride, offset)
        got.append((y.tolist(), y.stride(), y.storage_offset(), y.is_contiguous(),
                    L.empty(3, 4).as_strided(size, stride, offset).stride()))
    assert got[0] == got[1]


# ---- GroupNorm's refusal names both numbers, as PyTorch's -------------------------------
@pytest.mark.parametrize("groups,channels", [(3, 4), (4, 6), (5, 3)])
def test_group_norm_refusal_as_pytorch(groups, channels, torch_float64):
    torch = torch_float64
    got = [_outcome(lambda: L.nn.GroupNorm(groups, channels)) for L in (tg, torch)]
    assert got[0] == got[1] and isinstance(got[0], tuple)
