"""NaN and inf: IEEE propagation forward and backward, PyTorch's results at the classic
points, and a grid of special values (0, -0, 1, -2, inf, -inf, nan) through unary, binary and
reduction ops compared with PyTorch, value and gradient, on both paths (Python floats for 0-d
tensors, NumPy and the compiled sweep for arrays).  The few places tapegrad differs on purpose
are listed in KNOWN and pinned, so a change in either library shows up here.
"""
import itertools
import math
import warnings

import numpy as np
import pytest

import tapegrad as tg

inf, nan = math.inf, math.nan


def _grads(y, xs):
    y.backward()
    return [x.grad.item() if x.grad is not None and x.grad.numel() == 1 else x.grad
            for x in xs]


@pytest.mark.parametrize("scalar", [True, False], ids=["0-d", "array"])
def test_classic_points(scalar):
    def t(v):
        return tg.tensor(v if scalar else [v], requires_grad=True)

    def s(y):
        return y if scalar else y.sum()

    x, y = t(0.0), t(inf)  # 0 * inf: nan forward; d/dx = y = inf, d/dy = x = 0
    z = s(x * y)
    assert math.isnan(z.item()) and _grads(z, [x, y]) == [inf, 0.0]
    x = t(0.0)  # sqrt at 0: value 0, gradient inf (PyTorch: inf, not nan)
    assert _grads(s(x.sqrt()), [x]) == [inf]
    x = t(0.0)  # relu and abs at 0: gradient 0
    assert _grads(s(x.relu()), [x]) == [0.0]
    x = t(0.0)
    assert _grads(s(x.abs()), [x]) == [0.0]
    x = t(-0.0)
    assert _grads(s(x.abs()), [x]) == [0.0]
    x, y = t(2.0), t(2.0)  # maximum with a tie: half each (PyTorch)
    assert _grads(s(tg.maximum(x, y)), [x, y]) == [0.5, 0.5]
    x = t(nan)  # nan propagates through value and gradient
    z = s((x * 2.0).exp())
    assert math.isnan(z.item()) and math.isnan(_grads(z, [x])[0])
    x = t(inf)  # exp(inf) = inf, gradient inf; log(0) = -inf, gradient inf
    assert _grads(s(x.exp()), [x]) == [inf]
    x = t(0.0)
    z = s(x.log())
    assert z.item() == -inf and _grads(z, [x]) == [inf]


def test_max_with_ties_splits_or_picks_as_pytorch():
    x = tg.tensor([1.0, 3.0, 3.0], requires_grad=True)
    x.max().backward()  # full reduction: evenly among the tied maxima
    np.testing.assert_array_equal(x.grad.numpy(), [0.0, 0.5, 0.5])
    x = tg.tensor([[1.0, 3.0, 3.0]], requires_grad=True)
    v = x.max(dim=1)  # with dim: the gradient goes to the index returned
    v.values.sum().backward()
    assert v.indices.item() == 1
    np.testing.assert_array_equal(x.grad.numpy(), [[0.0, 1.0, 0.0]])
    x = tg.tensor([2.0, 2.0, 2.0], requires_grad=True)
    tg.amax(x, 0).backward()
    np.testing.assert_allclose(x.grad.numpy(), [1 / 3] * 3, rtol=1e-15)


def test_nan_and_inf_flow_through_a_graph_and_replay():
    """Special values in one element stay in their element, forward and backward, eager
    and replayed."""
    def f(x):
        return ((x * x).sqrt() + x.exp() * 0.5).sum()

    x0 = np.array([nan, inf, -inf, 0.0, 1.0])
    x = tg.tensor(x0, requires_grad=True)
    y = f(x)
    y.backward()
    with np.errstate(all="ignore"):
        want = np.where(x0 == 0, nan, x0 / np.abs(x0)) + 0.5 * np.exp(x0)
    assert math.isnan(y.item())
    np.testing.assert_array_equal(x.grad.numpy()[[0, 1, 4]], want[[0, 1, 4]])
    g = tg.trace(f, x0).grad(x0)
    np.testing.assert_array_equal(g, x.grad.numpy())


SPECIAL = [0.0, -0.0, 1.0, -2.0, inf, -inf, nan]

UNARY = {
    "exp": lambda L, x: x.exp(), "log": lambda L, x: x.log(), "sqrt": lambda L, x: x.sqrt(),
    "sin": lambda L, x: x.sin(), "tanh": lambda L, x: x.tanh(),
    "sigmoid": lambda L, x: x.sigmoid(), "relu": lambda L, x: x.relu(),
    "abs": lambda L, x: x.abs(), "neg": lambda L, x: -x, "recip": lambda L, x: 1.0 / x,
    "square": lambda L, x: x ** 2, "pow_half": lambda L, x: x ** 0.5,
    "cube": lambda L, x: x ** 3, "pow_m1": lambda L, x: x ** -1.0,
    "log1p": lambda L, x: x.log1p(), "expm1": lambda L, x: x.expm1(),
    "times_0": lambda L, x: x * 0.0, "times_inf": lambda L, x: x * inf,
    "sign": lambda L, x: x.sign(), "clamp": lambda L, x: x.clamp(-1.0, 1.0),
    "atan": lambda L, x: x.atan(), "erf": lambda L, x: x.erf(),
    "softplus": lambda L, x: L.nn.functional.softplus(x),
}
BINARY = {
    "add": lambda L, x, y: x + y, "sub": lambda L, x, y: x - y,
    "mul": lambda L, x, y: x * y, "div": lambda L, x, y: x / y,
    "pow": lambda L, x, y: x ** y, "maximum": lambda L, x, y: L.maximum(x, y),
    "minimum": lambda L, x, y: L.minimum(x, y), "atan2": lambda L, x, y: L.atan2(x, y),
}
VECTORS = [[1.0, 3.0, 3.0], [2.0, 2.0, 2.0], [0.0, 0.0, 0.0], [inf, 1.0, inf],
           [-inf, -inf, -inf], [nan, 1.0, 2.0], [inf, -inf, 0.0], [0.0, inf, 2.0],
           [-0.0, 0.0, 1.0]]
REDUCTIONS = {
    "max": lambda L, x: x.max(), "min": lambda L, x: x.min(),
    "amax": lambda L, x: L.amax(x, 0), "sum": lambda L, x: x.sum(),
    "mean": lambda L, x: x.mean(), "prod": lambda L, x: x.prod(),
    "logsumexp": lambda L, x: L.logsumexp(x, 0), "softmax": lambda L, x: L.softmax(x, 0)[0],
    "norm": lambda L, x: x.norm(), "var": lambda L, x: x.var(),
    "cumsum": lambda L, x: x.cumsum(0).sum(), "dot": lambda L, x: L.dot(x, x),
    "matmul": lambda L, x: x @ x, "sqrt_sum": lambda L, x: x.sqrt().sum(),
}

# (case, path) -> tapegrad's (value, gradients...), where it differs from PyTorch on purpose
KNOWN = {
    # Python's float pow follows C99 (pow(-inf, 0.5) = inf); NumPy and PyTorch give nan
    ("pow_half(-inf)", "0-d"): (inf, 0.0), ("pow_half(-inf)", "array"): (nan, 0.0),
    # pow(-0, 0.5) is +0 (C99), so its gradient is +inf; PyTorch takes sqrt(-0) = -0 and -inf
    ("pow_half(-0.0)", "0-d"): (0.0, inf), ("pow_half(-0.0)", "array"): (0.0, inf),
    # prod's rule counts zeros (the product of the others) and never forms 0 * inf
    ("prod([inf, -inf, 0.0])", "array"): (nan, 0.0, 0.0, -inf),
    ("prod([0.0, inf, 2.0])", "array"): (nan, inf, 0.0, 0.0),
}


def _run(L, fn, vals, scalar, torch=None):
    if torch is not None:
        xs = [torch.tensor(v, dtype=torch.float64, requires_grad=True) for v in vals]
    else:
        xs = [tg.tensor(v if scalar or isinstance(v, list) else [v], requires_grad=True)
              for v in vals]
    y = fn(L, *xs)
    if y.numel() > 1 or y.ndim:
        y = y.sum()
    y.backward()
    grads = [np.asarray(x.grad.detach() if torch is not None else x.grad.numpy(), float)
             for x in xs]
    return np.concatenate([[float(y)], *(g.ravel() for g in grads)])


def _cases():
    for name, fn in UNARY.items():
        for v in SPECIAL:
            yield f"{name}({v})", fn, [v]
    for name, fn in BINARY.items():
        for v, w in itertools.product(SPECIAL, SPECIAL):
            yield f"{name}({v}, {w})", fn, [v, w]


@pytest.mark.oracle
@pytest.mark.parametrize("path", ["0-d", "array"])
def test_special_values_match_pytorch(path, torch):
    scalar = path == "0-d"
    cases = list(_cases())
    if not scalar:
        cases += [(f"{n}({v})", fn, [v]) for n, fn in REDUCTIONS.items() for v in VECTORS]
    differ = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for case, fn, vals in cases:
            got = _run(tg, fn, vals, scalar)
            if not np.allclose(got, _run(torch, fn, vals, scalar, torch), rtol=1e-14, atol=0,
                               equal_nan=True):
                differ[(case, path)] = tuple(got)
    known = {k: v for k, v in KNOWN.items() if k[1] == path}
    assert set(differ) == set(known), "differences from PyTorch changed"
    for k, got in differ.items():
        np.testing.assert_array_equal(got, known[k], err_msg=str(k))
    assert len(cases) > 550
