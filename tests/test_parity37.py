"""Parity with PyTorch 2.13 (session 37): vector_norm(x, 0)'s unused input, integer and bool
operands refused by PyTorch's kernels, hardswish's values from 3, clamp's create_graph
gradient under an infinite upstream gradient, and the rows of a zero-gradient term."""
import numpy as np
import pytest
import torch

import tapegrad as tg
from tapegrad.ops.arithmetic import zero_gradient_to


@pytest.fixture(autouse=True)
def _float64(torch_float64):
    """torch's default dtype float64 (tapegrad's) in these tests only (conftest.py)."""


def _outcome(fn):
    try:
        r = fn()
    except Exception as e:  # noqa: BLE001 (the error is the outcome compared)
        return type(e).__name__, str(e)
    return "ok", str(r.dtype).split(".")[-1], r.tolist()


# ---- vector_norm(x, 0): a count, x unused -------------------------------------------------
_NORM0 = {"linalg.vector_norm": lambda T, x: T.linalg.vector_norm(x, 0),
          "norm(p=0)": lambda T, x: x.norm(p=0),
          "vector_norm dim": lambda T, x: T.linalg.vector_norm(x, 0, dim=0)}


def _norm0(T, case, how):
    x = T.tensor([0.0, 1.5, -2.0], requires_grad=True)
    y = _NORM0[case](T, x)
    head = (y.requires_grad, type(y.grad_fn).__name__)
    if how == "backward":
        y.sum().backward()
        return head, None if x.grad is None else x.grad.tolist()
    kw = {"allow_unused": True} if how == "allow_unused" else {}
    try:
        g, = T.autograd.grad(y, x, **kw)
    except RuntimeError as e:
        return head, str(e)
    return head, None if g is None else g.tolist()


@pytest.mark.parametrize("how", ["backward", "grad", "allow_unused"])
@pytest.mark.parametrize("case", sorted(_NORM0))
def test_zero_norm_leaves_its_input_unused(case, how):
    assert _norm0(tg, case, how) == _norm0(torch, case, how)


# ---- integer and bool operands PyTorch's kernels refuse ---------------------------------------
def _b(T):
    return T.tensor([True, False, True])


def _i(T):
    return T.tensor([1, 2, 3])


_REFUSED = {
    "trunc(b)": lambda T: T.trunc(_b(T)), "fix(b)": lambda T: T.fix(_b(T)),
    "frac(i)": lambda T: T.frac(_i(T)), "frac(b)": lambda T: T.frac(_b(T)),
    "i.frac()": lambda T: _i(T).frac(),
    "fmod(b, b)": lambda T: T.fmod(_b(T), _b(T)), "fmod(b, True)": lambda T: T.fmod(_b(T), True),
    "remainder(b, b)": lambda T: T.remainder(_b(T), _b(T)), "b % b": lambda T: _b(T) % _b(T),
    "floor_divide(b, b)": lambda T: T.floor_divide(_b(T), _b(T)),
    "b // b": lambda T: _b(T) // _b(T),
    "div(b, b, floor)": lambda T: T.div(_b(T), _b(T), rounding_mode="floor"),
    "hypot(i, i)": lambda T: T.hypot(_i(T), _i(T)), "hypot(b, b)": lambda T: T.hypot(_b(T), _b(T)),
    "logaddexp(i, i)": lambda T: T.logaddexp(_i(T), _i(T)),
    "logaddexp2(b, b)": lambda T: T.logaddexp2(_b(T), _b(T)),
    "nextafter(i, i)": lambda T: T.nextafter(_i(T), _i(T)),
    "nextafter(b, b)": lambda T: T.nextafter(_b(T), _b(T)),
    "lerp(i, i, 0.5)": lambda T: T.lerp(_i(T), _i(T), 0.5),
    "lerp(b, b, 0.5)": lambda T: T.lerp(_b(T), _b(T), 0.5),
    "lerp(i, i, i)": lambda T: T.lerp(_i(T), _i(T), _i(T)),
    "gcd(b, b)": lambda T: T.gcd(_b(T), _b(T)), "lcm(b, b)": lambda T: T.lcm(_b(T), _b(T)),
    "b << b": lambda T: _b(T) << _b(T), "b >> True": lambda T: _b(T) >> True,
    "bitwise_right_shift(b, b)": lambda T: T.bitwise_right_shift(_b(T), _b(T)),
}


@pytest.mark.parametrize("case", sorted(_REFUSED))
def test_integer_and_bool_operands_are_torchs(case):
    assert _outcome(lambda: _REFUSED[case](tg)) == _outcome(lambda: _REFUSED[case](torch))


# ---- hardswish from 3: x * 6 / 6 ----------------------------------------------------------
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_hardswish_values_and_gradient_from_three(dtype):
    rng = np.random.default_rng(5)
    x = np.concatenate([rng.uniform(3.0, 8.0, 200), [3.0, 1e38, np.inf, np.nan]]).astype(dtype)
    got, want = [], []
    for T, out in ((tg, got), (torch, want)):
        t = T.tensor(x, requires_grad=True)
        y = T.nn.functional.hardswish(t)
        g, = T.autograd.grad(y.sum(), t)
        out.extend((y.detach().numpy(), g.numpy()))
    for a, b in zip(got, want, strict=True):
        assert np.array_equal(a, b, equal_nan=True)


# ---- clamp's create_graph gradient: selected, not masked by a product -------------------------
def _clamp_grad(T, create_graph):
    x = T.tensor([-1.0, 0.0, 0.5, 1.0, 2.0, float("inf")], requires_grad=True)
    y = T.clamp(x, 0.0, 1.0)
    up = T.tensor([float("inf"), float("inf"), -float("inf"), 1.0, float("inf"), 2.0])
    g, = T.autograd.grad(y, x, grad_outputs=up, create_graph=create_graph)
    return g.tolist()


def test_clamp_create_graph_gradient_of_infinite_upstream_is_torchs():
    assert _clamp_grad(tg, True) == _clamp_grad(torch, True)


def _logit_eps0(T):
    x = T.tensor([-0.5, 0.0, 0.25, 1.0, 1.5, float("inf")], requires_grad=True)
    g, = T.autograd.grad(T.logit(x, 0.0).sum(), x, create_graph=True)
    return g.tolist()


def test_logit_eps_zero_create_graph_gradient_outside_is_zero():
    assert _logit_eps0(tg) == _logit_eps0(torch)


# ---- a zero-gradient term: two rows per input (sign, where), four before ----------------------
def test_zero_gradient_term_records_two_rows_per_input(tape):
    x = tg.tensor([1.5, -2.0], requires_grad=True)
    o = tg.tensor([-0.0, 3.0], requires_grad=True)
    y = x * 2.0
    before = tape.nrows
    z = zero_gradient_to(y, x, o)
    assert tape.nrows - before == 4
    assert z.tolist() == y.tolist()
    gx, go = tg.autograd.grad(z.sum(), (x, o), create_graph=True)
    assert (gx.tolist(), go.tolist(), go.requires_grad) == ([2.0, 2.0], [0.0, 0.0], False)
