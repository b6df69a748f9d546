"""Hostile-input fuzzer: hypothesis draws API misuse across tapegrad's ops and checks that
every case ends in a clear Python exception or a correct result, with nothing recorded by
a failed op.  Run by tests/test_reliability_fuzz.py in a subprocess (so that a segfault is
counted, not fatal), or by hand:

    python tests/fuzz_hostile.py --examples 20000 --seed 1

It prints one JSON line: cases tried, how they ended, and every failure found:
- ``crash``: an exception other than TypeError, ValueError, IndexError, RuntimeError,
  NotImplementedError (and ZeroDivisionError/OverflowError from Python-number results), or
  an IndexError from inside a compiled kernel (run with NUMBA_BOUNDSCHECK=1 and a fresh
  NUMBA_CACHE_DIR, or NUMBA_DISABLE_JIT=1, to catch out-of-bounds accesses there);
- ``leak``: a failed op changed the tape (rows) of the thread;
- ``wrong``: the op succeeded where PyTorch also did, and the values, shape or gradients
  differ from PyTorch's;
- ``accepted``: a misuse of the API (kind ``misuse``: dtype strings, ``.grad`` assignments,
  fill values, sizes, flags, module and reduction arguments, functional transforms, batch
  replay and trace files; issue 18) that tapegrad accepted where PyTorch refuses it;
- a dead process (reported by the caller).
"""
import argparse
import json
import math
import os
import resource
import sys
import tempfile
import traceback
import warnings

import numpy as np
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

import tapegrad as tg
import tapegrad.nn.functional as F
from tapegrad._state import state
from tapegrad.tape import current_tape

try:
    import torch
    torch.set_default_dtype(torch.float64)  # tapegrad's default float: tensor(1e308) is finite
except ImportError:  # the oracle is optional: without it, results are checked for sanity only
    torch = None

ALLOWED = (TypeError, ValueError, IndexError, RuntimeError, NotImplementedError,
           ZeroDivisionError, OverflowError)
# NumPy's "Unable to allocate 16.0 GiB for an array with shape ..." (PyTorch raises a
# RuntimeError there): a clear Python exception, counted on its own line
TOO_BIG = MemoryError
_REFUSED = object()

HUGE = [2**31, 2**40, 2**62, 2**63, 2**64, -2**63, 10**30]
SPECIAL = [0.0, -0.0, 1.0, -1.5, math.inf, -math.inf, math.nan, 1e308, 5e-324]
DTYPES = ["float64", "float32", "int64", "int32", "bool", "uint8", "float16", "complex128",
          "object", "<U3", "datetime64[s]"]


def _shape(max_dims=3, max_side=3):
    return st.lists(st.integers(0, max_side), max_size=max_dims).map(tuple)


@st.composite
def arrays(draw, dtype=None):
    shape = draw(_shape())
    dt = dtype or draw(st.sampled_from(["float64"] * 6 + ["float32", "int64", "bool"]))
    n = int(np.prod(shape))
    vals = draw(st.lists(st.one_of(st.floats(-3, 3), st.sampled_from(SPECIAL)),
                         min_size=n, max_size=n))
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return np.array(vals, dtype=np.float64).reshape(shape).astype(dt)


@st.composite
def tensors(draw):
    """A tapegrad Tensor: float leaves that may require grad, non-leaves, integer and bool
    constants, 0-d, empty and zero-size shapes, NaN and inf values."""
    a = draw(arrays())
    if draw(st.booleans()) and a.ndim == 0:
        a = float(a) if a.dtype.kind == "f" else a
    t = tg.tensor(a)
    if t.is_floating_point() and draw(st.booleans()):
        t.requires_grad_(True)
        if draw(st.booleans()):
            t = t * 1.0  # a non-leaf on the tape
    return t


def hostile_objects():
    ragged = st.sampled_from([[[1.0, 2.0], [3.0]], [1.0, [2.0]], [[[]], [1.0]], [None, 1.0],
                              ["a", 1.0], [[1.0, 2.0], [3.0, "x"]], [{}, 1.0]])
    nested = st.recursive(st.floats(-2, 2) | st.sampled_from(SPECIAL),
                          lambda c: st.lists(c, max_size=3), max_leaves=8)
    odd_arrays = st.sampled_from(DTYPES).flatmap(
        lambda dt: _shape().map(lambda s, dt=dt: _odd_array(s, dt)))
    return st.one_of(
        st.none(), st.text(max_size=3), st.just(object()), st.complex_numbers(max_magnitude=3),
        st.booleans(), st.integers(-5, 5), st.sampled_from(HUGE), st.sampled_from(SPECIAL),
        ragged, nested, odd_arrays, st.just(Ellipsis), st.just(slice(None, None, -1)),
        st.dictionaries(st.text(max_size=2), st.integers(), max_size=2),
        st.tuples(st.integers(-3, 3), st.integers(-3, 3)), st.just(np.float64(2.0)),
        st.just(np.int64(-1)), st.just(lambda: 0), st.just(b"ab"), st.just(range(3)))


def _odd_array(shape, dt):
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if dt == "object":
            return np.full(shape, None, dtype=object)
        if dt == "<U3":
            return np.full(shape, "ab", dtype=dt)
        return np.ones(shape).astype(dt)


def anything():
    """Operands: mostly tensors (so shapes and dtypes clash), numbers, and hostile objects."""
    return st.one_of(tensors(), tensors(), tensors(), arrays(),
                     st.floats(allow_nan=True, allow_infinity=True), hostile_objects())


def dims():
    """Dimension arguments: in range, negative, out of range, huge, and not ints at all."""
    return st.one_of(st.integers(-4, 4), st.integers(-4, 4), st.sampled_from(HUGE),
                     st.none(), st.floats(-2, 2), st.text(max_size=2),
                     st.tuples(st.integers(-3, 3), st.integers(-3, 3)),
                     st.lists(st.integers(-3, 3), max_size=3), st.just(np.int64(1)),
                     st.booleans())


def sizes():
    """Shape arguments: valid, -1s, zeros, negative, huge, ragged, and not sizes at all."""
    return st.one_of(st.lists(st.integers(-2, 4), max_size=4).map(tuple),
                     st.lists(st.sampled_from([-1, 0, 1, 2, 3, 2**31, 2**62, -2**63]),
                              max_size=3).map(tuple),
                     st.integers(-3, 6), st.sampled_from(HUGE), hostile_objects())


def indices():
    """Indices: ints in and out of range, slices with zero or negative steps, None, Ellipsis,
    index lists, boolean masks, float and integer tensors, and tuples of them."""
    one = st.one_of(
        st.integers(-5, 5), st.sampled_from(HUGE),
        st.builds(slice, st.none() | st.integers(-5, 5), st.none() | st.integers(-5, 5),
                  st.none() | st.integers(-2, 2)),
        st.none(), st.just(Ellipsis), st.lists(st.integers(-5, 5), max_size=4),
        st.lists(st.booleans(), max_size=4), arrays(dtype="int64"), arrays(dtype="bool"),
        tensors(), st.floats(-2, 2), st.text(max_size=1))
    return one | st.lists(one, max_size=4).map(tuple)


UNARY = ["exp", "log", "sin", "cos", "tanh", "sigmoid", "relu", "sqrt", "abs", "neg", "log1p",
         "expm1", "floor", "sign", "erf", "atan", "asin", "sinh", "round", "ceil"]
BINARY = ["add", "sub", "mul", "div", "pow", "maximum", "minimum", "atan2", "matmul", "mm",
          "mv", "dot", "bmm", "outer", "eq", "lt", "ge"]
REDUCE = ["sum", "mean", "prod", "max", "min", "amax", "amin", "argmax", "argmin", "logsumexp",
          "norm", "var", "std", "cumsum", "softmax", "log_softmax"]
OPERATORS = {"+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b,
             "/": lambda a, b: a / b, "**": lambda a, b: a ** b, "@": lambda a, b: a @ b,
             "<": lambda a, b: a < b, "r+": lambda a, b: b + a, "r*": lambda a, b: b * a,
             "r/": lambda a, b: b / a, "r**": lambda a, b: b ** a, "r@": lambda a, b: b @ a}


def _case(data):
    """Draw one misuse: returns (name, fn(L) -> result, operand tensors) where L is the
    library (tapegrad or torch), so the same call runs on both."""
    kind = data.draw(st.sampled_from(
        ["unary", "binary", "operator", "reduce", "shape", "index", "setitem", "create",
         "join", "select", "nn", "backward", "grad", "convert", "inplace", "misuse"]))
    x = data.draw(tensors())
    if kind == "misuse":
        return _misuse(data, x)
    if kind == "unary":
        name = data.draw(st.sampled_from(UNARY))
        arg = data.draw(st.one_of(st.just(x), anything()))
        return f"{name}({_r(arg)})", lambda L: getattr(L, name)(_L(L, arg)), [arg]
    if kind == "binary":
        name = data.draw(st.sampled_from(BINARY))
        b = data.draw(anything())
        return f"{name}({_r(x)}, {_r(b)})", lambda L: getattr(L, name)(_L(L, x), _L(L, b)), \
            [x, b]
    if kind == "operator":
        name = data.draw(st.sampled_from(list(OPERATORS)))
        b = data.draw(anything())
        return f"x {name} {_r(b)}", lambda L: OPERATORS[name](_L(L, x), _L(L, b)), [x, b]
    if kind == "reduce":
        name = data.draw(st.sampled_from(REDUCE))
        dim = data.draw(dims())
        keep = data.draw(st.booleans())
        if name in ("softmax", "log_softmax", "cumsum"):
            return f"{name}(x, {dim!r})", lambda L: getattr(L, name)(_L(L, x), dim), [x]
        if name == "logsumexp":
            return f"logsumexp(x, {dim!r}, {keep})", \
                lambda L: L.logsumexp(_L(L, x), dim, keep), [x]
        if dim is None:
            return f"{name}(x)", lambda L: getattr(L, name)(_L(L, x)), [x]
        return f"{name}(x, dim={dim!r}, keepdim={keep})", \
            lambda L: getattr(L, name)(_L(L, x), dim=dim, keepdim=keep), [x]
    if kind == "shape":
        name = data.draw(st.sampled_from(
            ["reshape", "view", "permute", "expand", "tile", "flip", "squeeze", "unsqueeze",
             "transpose", "flatten", "narrow", "roll", "split", "chunk", "movedim",
             "broadcast_to", "repeat"]))
        args = data.draw(st.one_of(sizes().map(lambda s: (s,)),
                                   st.tuples(dims(), dims()), st.tuples(dims(), dims(), dims()),
                                   st.lists(st.integers(-3, 5), max_size=4).map(tuple)))
        return f"x.{name}{args!r}", lambda L: getattr(_L(L, x), name)(*_L(L, args)), [x]
    if kind == "index":
        idx = data.draw(indices())
        return f"x[{_r(idx)}]", lambda L: _L(L, x)[_L(L, idx)], [x, idx]
    if kind == "setitem":
        idx = data.draw(indices())
        v = data.draw(anything())
        y = x * 1.0 if x.is_floating_point() and x.requires_grad else x

        def setitem(L):
            t = _L(L, y) if L is tg else _L(L, y).clone()
            t[_L(L, idx)] = _L(L, v)
            return t
        return f"x[{_r(idx)}] = {_r(v)}", setitem, [y, idx, v]
    if kind == "create":
        name = data.draw(st.sampled_from(["tensor", "zeros", "ones", "full", "arange", "eye",
                                          "linspace", "randn", "as_tensor", "zeros_like"]))
        a = data.draw(st.one_of(anything(), sizes()))
        b = data.draw(st.one_of(st.floats(-2, 2), anything()))
        calls = {"tensor": lambda L: L.tensor(_L(L, a)), "zeros": lambda L: L.zeros(a),
                 "ones": lambda L: L.ones(a), "full": lambda L: L.full(a, _L(L, b)),
                 "arange": lambda L: L.arange(_L(L, a), _L(L, b)), "eye": lambda L: L.eye(a),
                 "linspace": lambda L: L.linspace(_L(L, a), _L(L, b), 3),
                 "randn": lambda L: L.randn(a).shape,
                 "as_tensor": lambda L: L.as_tensor(_L(L, a)),
                 "zeros_like": lambda L: L.zeros_like(_L(L, a))}
        return f"{name}({_r(a)}, {_r(b)})", calls[name], [a, b]
    if kind == "join":
        name = data.draw(st.sampled_from(["cat", "stack"]))
        items = data.draw(st.one_of(st.lists(st.one_of(st.just(x), tensors()), max_size=3),
                                    anything()))
        dim = data.draw(dims())
        return f"{name}({_r(items)}, {dim!r})", \
            lambda L: getattr(L, name)(_L(L, items), dim), [items]
    if kind == "select":
        name = data.draw(st.sampled_from(["gather", "index_select", "masked_fill", "where",
                                          "select", "clamp"]))
        dim = data.draw(dims())
        other = data.draw(st.one_of(indices(), anything()))
        val = data.draw(anything())
        calls = {"gather": lambda L: L.gather(_L(L, x), dim, _L(L, other)),
                 "index_select": lambda L: L.index_select(_L(L, x), dim, _L(L, other)),
                 "masked_fill": lambda L: L.masked_fill(_L(L, x), _L(L, other), _L(L, val)),
                 "where": lambda L: L.where(_L(L, other), _L(L, x), _L(L, val)),
                 "select": lambda L: L.select(_L(L, x), dim, _L(L, other)),
                 "clamp": lambda L: L.clamp(_L(L, x), _L(L, other), _L(L, val))}
        return f"{name}(x, {dim!r}, {_r(other)}, {_r(val)})", calls[name], [x, other, val]
    if kind == "nn":
        name = data.draw(st.sampled_from(["cross_entropy", "mse_loss", "nll_loss", "softmax",
                                          "binary_cross_entropy", "l1_loss"]))
        b = data.draw(st.one_of(tensors(), indices(), anything()))
        if name == "softmax":
            return f"F.softmax(x, {_r(b)})", lambda L: _F(L).softmax(_L(L, x), _L(L, b)), [x]
        return f"F.{name}(x, {_r(b)})", lambda L: getattr(_F(L), name)(_L(L, x), _L(L, b)), \
            [x, b]
    if kind in ("backward", "grad"):
        out = x * 2.0 if x.requires_grad else x
        g = data.draw(st.one_of(st.none(), tensors(), anything()))
        inputs = data.draw(st.one_of(st.just([x]), st.just(x), anything()))
        if kind == "backward":
            return f"(x*2).backward({_r(g)})", lambda L: _backward(L, out, g), [out, g]
        return f"grad(x*2, {_r(inputs)}, {_r(g)})", \
            lambda L: L.autograd.grad(_L(L, out), _L(L, inputs), _L(L, g)), [out, inputs, g]
    if kind == "convert":
        name = data.draw(st.sampled_from(["item", "tolist", "numpy", "float", "int", "bool",
                                          "len", "requires_grad_", "to", "iter"]))
        arg = data.draw(anything())
        calls = {"item": lambda L: _L(L, x).item(), "tolist": lambda L: _L(L, x).tolist(),
                 "numpy": lambda L: _L(L, x).numpy(), "float": lambda L: float(_L(L, x)),
                 "int": lambda L: int(_L(L, x)), "bool": lambda L: bool(_L(L, x)),
                 "len": lambda L: len(_L(L, x)), "iter": lambda L: list(_L(L, x)),
                 "requires_grad_": lambda L: _L(L, x).detach().requires_grad_(arg),
                 "to": lambda L: _L(L, x).to(_L(L, arg))}
        return f"x.{name}({_r(arg)})", calls[name], [x, arg]
    name = data.draw(st.sampled_from(["add_", "mul_", "sub_", "div_", "clamp_", "fill_",
                                      "zero_", "copy_"]))
    b = data.draw(anything())
    y = x * 1.0 if x.requires_grad else x

    def inplace(L):
        t = _L(L, y) if L is tg else _L(L, y).clone()
        return getattr(t, name)() if name == "zero_" else getattr(t, name)(_L(L, b))
    return f"x.{name}({_r(b)})", inplace, [y, b]


FLAGS = st.one_of(st.booleans(), st.sampled_from(["yes", "", "False", 1, 0, None, 1.0, [],
                                                   np.ones(2)]))
DTYPE_WORDS = st.sampled_from(["float32", "float64", "banana", "int64", "double", "cpu:0",
                               "", "Float", "torch.float32"])  # ('cuda': PyTorch's assert)


def _misuse(data, x):
    """Issue 18's API misuse: each case is checked against PyTorch, and tapegrad must refuse
    what PyTorch refuses (``accepted`` otherwise)."""
    what = data.draw(st.sampled_from(["to", "grad_set", "full", "size", "flag", "linear",
                                      "correction", "reshape", "batch_grad", "load",
                                      "hessian", "hvp"]))
    if what == "to":
        word = data.draw(DTYPE_WORDS)
        return f"misuse: x.to({word!r})", lambda L: _L(L, x).to(word), [x]
    if what == "grad_set":
        leaf = tg.tensor(np.ones(3), dtype=data.draw(st.sampled_from([tg.float64, tg.float32])),
                         requires_grad=True)
        g = data.draw(st.one_of(
            st.sampled_from(["a", 1.0, [1.0, 1.0, 1.0], np.ones(3)]),
            st.sampled_from(["float64", "float32", "int64", "bool"]).flatmap(
                lambda dt: st.sampled_from([(3,), (2,), (3, 1), ()]).map(
                    lambda s, dt=dt: tg.tensor(np.ones(s).astype(dt))))))

        def grad_set(L):
            t = _L(L, leaf)
            t.grad = _L(L, g)
            (t * t).sum().backward()
            return t.grad
        return f"misuse: x.grad = {_r(g)}", grad_set, [leaf, g]
    if what == "full":
        fill = data.draw(st.one_of(hostile_objects(), st.floats(-2, 2)))
        return f"misuse: full((2,), {_r(fill)})", lambda L: L.full((2,), _L(L, fill)), [fill]
    if what == "size":
        name = data.draw(st.sampled_from(["zeros", "ones", "empty", "rand", "randn"]))
        size = data.draw(st.one_of(st.sampled_from([2.5, "a", -1, (2, "a"), (2, 2.0), True,
                                                    (2, -1), None, (1.5,), [2, 3]]),
                                   st.integers(-2, 3)))
        return f"misuse: {name}({_r(size)})", lambda L: tuple(getattr(L, name)(size).shape), []
    if what == "flag":
        flag = data.draw(FLAGS)
        how = data.draw(st.sampled_from(["tensor", "zeros", "ones", "full", "requires_grad_",
                                         "setattr"]))
        calls = {"tensor": lambda L: L.tensor([1.0], requires_grad=flag),
                 "zeros": lambda L: L.zeros(2, requires_grad=flag),
                 "ones": lambda L: L.ones(2, requires_grad=flag),
                 "full": lambda L: L.full((2,), 1.0, requires_grad=flag),
                 "requires_grad_": lambda L: L.ones(2).requires_grad_(flag),
                 "setattr": lambda L: setattr(L.ones(2), "requires_grad", flag)}
        return f"misuse: {how}(requires_grad={_r(flag)})", calls[how], []
    if what == "linear":
        a, b = data.draw(st.tuples(*[st.one_of(st.integers(0, 3), hostile_objects())] * 2))
        return f"misuse: Linear({_r(a)}, {_r(b)})", \
            lambda L: tuple(L.nn.Linear(a, b).weight.shape), []
    if what == "correction":
        c = data.draw(st.one_of(hostile_objects(), st.integers(0, 2)))
        y = tg.tensor([1.0, 2.0, 4.0], requires_grad=True)
        return f"misuse: var(correction={_r(c)})", lambda L: _L(L, y).var(correction=c), [y]
    if what == "reshape":
        s = data.draw(st.one_of(hostile_objects(), sizes()))
        return f"misuse: x.reshape({_r(s)})", lambda L: _L(L, x).reshape(_L(L, s)), [x]
    if what == "batch_grad":
        Xs = data.draw(st.sampled_from([(), (np.ones((2, 3)), np.ones((3, 3))), (np.ones(3),),
                                        ("a",)]))
        return f"misuse: batch_grad(f, {_r(Xs)})", lambda L: _batch_grad(L, Xs), []
    if what == "load":
        blob = data.draw(st.sampled_from([b"", b"hello", b"PK\x03\x04garbage", "npz",
                                          "pickle"]))
        return f"misuse: load({_r(blob)})", lambda L: _load(L, blob), []
    n = data.draw(st.integers(1, 3))
    v = data.draw(st.sampled_from([(n,), (n + 1,), (n, 1), ()]))
    if what == "hessian":
        return f"misuse: hessian(x * x, ones({n}))", lambda L: L.autograd.functional.hessian(
            lambda z: z * z, L.ones(n, dtype=L.float64)), []
    return f"misuse: hvp(sum(x**3), ones({n}), ones{v})", \
        lambda L: L.autograd.functional.hvp(lambda z: (z ** 3).sum(), L.ones(n, dtype=L.float64),
                                            L.ones(*v, dtype=L.float64))[1], []


def _batch_grad(L, Xs):
    if L is not tg:  # PyTorch has no batch replay: what must be refused is refused
        if len(Xs) == 1 and isinstance(Xs[0], np.ndarray):
            return None  # points of a scalar input: fine, not compared
        raise TypeError("no points, points of different B, or not numbers")
    return tg.batch_grad(lambda z: (z * z).sum(), *Xs)


def _load(L, blob):
    if L is not tg:  # none of these files is a trace: the trace loader must refuse each
        raise ValueError("not a trace")
    fd, path = tempfile.mkstemp(suffix=".npz")
    with os.fdopen(fd, "wb") as f:
        if blob == "npz":
            np.savez(f, weights=np.ones(3))
        elif blob == "pickle":
            import pickle
            pickle.dump({"a": 1}, f)
        else:
            f.write(blob)
    try:
        return tg.replay.load(path)
    finally:
        os.unlink(path)


def _backward(L, out, g):
    o = _L(L, out)
    o.backward(_L(L, g))
    return o


def _F(L):
    return F if L is tg else torch.nn.functional


def _r(v):
    s = repr(v)
    return s if len(s) < 80 else s[:77] + "..."


def _L(L, v):
    """``v`` for library L: tapegrad Tensors become torch tensors (same values, dtype and
    requires_grad), recursively in lists and tuples."""
    if L is tg:
        return v
    if isinstance(v, tg.Tensor):
        a = np.array(v._data)
        if a.dtype.kind not in "biuf":
            raise TypeError("unconvertible")
        if id(v) not in _TWINS:  # one twin per tensor and case: its gradient is compared
            t = torch.from_numpy(a)
            if v.requires_grad:
                t.requires_grad_(True)
            _TWINS[id(v)] = (v, t)
        return _TWINS[id(v)][1]
    if type(v) in (list, tuple):
        return type(v)(_L(L, e) for e in v)
    if isinstance(v, np.ndarray):  # as a tensor: PyTorch's Tensor + ndarray promotes oddly
        return torch.from_numpy(v.copy()) if v.dtype.kind in "biuf" else v.copy()
    return v


_TWINS = {}  # id(tapegrad tensor) -> (tensor, its PyTorch twin), for the current case


def _check_grads(r, expected):
    """Gradients of a successful differentiable result, seeded with ones, against PyTorch's
    for every operand that requires grad.  Returns a problem string or None."""
    if not (isinstance(r, tg.Tensor) and r.requires_grad and torch.is_tensor(expected)
            and expected.requires_grad and r.numel() and tuple(r.shape) == expected.shape):
        return None
    pairs = [(t, u) for t, u in _TWINS.values() if t.requires_grad and u.requires_grad]
    if not pairs or any(t is r for t, _ in _TWINS.values()):
        return None  # in place (x now stands for the result) or already swept (backward)
    got = tg.autograd.grad(r, [t for t, _ in pairs], grad_outputs=tg.ones(*r.shape),
                           allow_unused=True)
    want = torch.autograd.grad(expected, [u for _, u in pairs], torch.ones_like(expected),
                               allow_unused=True)
    for (t, _), g, w in zip(pairs, got, want, strict=True):
        g = np.zeros(t.shape) if g is None else np.asarray(g._data, np.float64)
        w = np.zeros(t.shape) if w is None else w.detach().numpy().astype(np.float64)
        with np.errstate(all="ignore"):
            if g.shape != w.shape or not np.allclose(g, w, rtol=1e-5, atol=1e-6,
                                                     equal_nan=True):
                return f"gradient {g.tolist()} differs from PyTorch's {w.tolist()}"
    return None


def _from_kernel(e):
    """An IndexError from inside a sweep: NUMBA_BOUNDSCHECK=1's message, or a frame of
    _sweep.py or of a rule (under NUMBA_DISABLE_JIT=1 they run as Python and NumPy raises).
    Indices must be checked in Python before they reach a kernel."""
    if not isinstance(e, IndexError):
        return False
    if "index is out of bounds" in str(e):
        return True
    tb = e.__traceback__
    while tb is not None:
        code = tb.tb_frame.f_code
        if code.co_filename.endswith("_sweep.py") or code.co_name.endswith(("_rev", "_fwd")):
            return True
        tb = tb.tb_next
    return False


def _finite(v):
    """No NaN or inf in any operand (conventions at those points differ on purpose)."""
    if isinstance(v, tg.Tensor):
        v = v._data
    if type(v) in (list, tuple):
        return all(_finite(e) for e in v)
    if isinstance(v, (float, np.ndarray, np.generic)):
        a = np.asarray(v)
        return a.dtype.kind not in "fc" or bool(np.isfinite(a).all())
    return True


def _f32_rounds(operands):
    """A float32 tensor with a Python float outside float32's normal range: PyTorch rounds
    the number to float32 first (1e-300 becomes 0, so 0 ** -1e-300 is 1), tapegrad does not."""
    def tensors_of(v):
        return [v] if isinstance(v, tg.Tensor) else \
            [t for e in v for t in tensors_of(e)] if type(v) in (list, tuple) else []

    f32 = any(t.dtype == tg.float32 for v in operands for t in tensors_of(v))
    return f32 and any(type(v) is float and v != 0 and not 1.2e-38 < abs(v) < 3.4e38
                       for v in operands)


def _check_result(r, expected):
    """A result is sane: tensors have the shape of their data; with PyTorch's result at hand,
    the same values and shape.  Returns a problem string or None."""
    if isinstance(r, tg.Tensor):
        a = np.asarray(r.detach().numpy() if r.is_complex() else r._data)
        if tuple(a.shape) != tuple(r.shape):
            return f"shape {tuple(r.shape)} but data {a.shape}"
        if expected is None:
            return None
        e = expected
        if isinstance(e, tuple) and hasattr(e, "values"):  # torch.return_types.max
            return None
        if not torch.is_tensor(e):
            return None
        e = e.detach().numpy()
        if tuple(a.shape) != tuple(e.shape):
            return f"shape {a.shape}, PyTorch {e.shape}"
        if a.dtype.kind in "biuf" and e.dtype.kind in "biuf" and a.size:
            with np.errstate(all="ignore"):
                ok = np.allclose(a.astype(np.float64), e.astype(np.float64), rtol=1e-5,
                                 atol=1e-6, equal_nan=True)
            if not ok:
                return "values differ from PyTorch"
    return None


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--examples", type=int, default=2000)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--log", help="write each case here before it runs (to name a killer)")
    p.add_argument("--mem-gib", type=float, default=4.0,
                   help="address-space limit: a huge allocation fails instead of swapping")
    args = p.parse_args()
    if args.mem_gib:
        lim = int(args.mem_gib * 2**30)
        resource.setrlimit(resource.RLIMIT_AS, (lim, lim))
    log = open(args.log, "w") if args.log else None
    stats = {"tried": 0, "ok": 0, "refused": 0, "too_big": 0, "compared": 0,
             "grads_compared": 0, "backward_refused": [], "by_error": {},
             "crashes": [], "leaks": [], "wrong": [], "misuse": 0, "accepted": []}

    @seed(args.seed)
    @settings(max_examples=args.examples, deadline=None, database=None, derandomize=False,
              suppress_health_check=list(HealthCheck), print_blob=False)
    @given(st.data())
    def one(data):
        anchor = tg.tensor(0.0, requires_grad=True) * 1.0  # holds the tape's generation
        _TWINS.clear()
        case, fn, operands = _case(data)
        if log:
            log.write(case + "\n")
            log.flush()
        tape = current_tape()
        rows = tape.nrows
        stats["tried"] += 1
        stats["misuse"] += case.startswith("misuse:")
        expected = None  # PyTorch first: an in-place case must not see tapegrad's change
        misuse = case.startswith("misuse:")  # PyTorch always runs: refusals are compared
        if torch is not None and (misuse or _finite(operands) and not _f32_rounds(operands)):
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    expected = fn(torch)
            except Exception:  # noqa: BLE001 (PyTorch refuses: nothing to compare)
                expected = _REFUSED
        try:
            with warnings.catch_warnings(), np.errstate(all="ignore"):
                warnings.simplefilter("ignore")
                r = fn(tg)
        except ALLOWED as e:
            if _from_kernel(e):
                stats["crashes"].append(f"{case}: out-of-bounds in a kernel: {e}\n"
                                        + traceback.format_exc(limit=-3))
                del anchor
                return
            stats["refused"] += 1
            k = type(e).__name__
            stats["by_error"][k] = stats["by_error"].get(k, 0) + 1
            # (hessian refuses f's vector output after running f: those rows are f's own,
            # kept while the anchor keeps the tape, not a half-recorded op)
            if state.tape is tape and tape.nrows != rows and \
                    not case.startswith("misuse: hessian"):
                stats["leaks"].append(f"{case}: {k}: {tape.nrows - rows} rows left")
            del anchor
            return
        except TOO_BIG:
            stats["too_big"] += 1
            del anchor
            return
        except BaseException as e:  # noqa: BLE001 (a crash: counted and reported)
            stats["crashes"].append(f"{case}: {type(e).__name__}: {e}\n"
                                    + traceback.format_exc(limit=-3))
            del anchor
            return
        stats["ok"] += 1
        if misuse and expected is _REFUSED:
            stats["accepted"].append(f"{case}: accepted (PyTorch refuses it), gave {_r(r)}")
        if expected is _REFUSED:
            expected = None
        elif expected is not None:
            stats["compared"] += 1
        problem = _check_result(r, expected)
        # PyTorch 2.13 differentiates x ** False as False * x ** -1 (nan at 0), unlike its
        # own x ** 0 and x ** 0.0 (0 everywhere), which tapegrad follows for all three
        torch_quirk = case.endswith("** False")
        if problem is None and expected is not None and not torch_quirk:
            try:
                problem = _check_grads(r, expected)
                stats["grads_compared"] += problem is None
            except ALLOWED as e:  # a forward tapegrad records but cannot differentiate
                if _from_kernel(e):
                    problem = f"out-of-bounds in a kernel: {e}"
                else:
                    stats["backward_refused"].append(f"{case}: {type(e).__name__}: {e}")
            except BaseException as e:  # noqa: BLE001 (a crash)
                stats["crashes"].append(f"{case} (backward): {type(e).__name__}: {e}\n"
                                        + traceback.format_exc(limit=-3))
        if problem:
            stats["wrong"].append(f"{case}: {problem}; operands {[_r(v) for v in operands]}")
        del anchor, r
        _TWINS.clear()

    one()
    stats["by_error"] = dict(sorted(stats["by_error"].items()))
    print(json.dumps(stats))


if __name__ == "__main__":
    sys.exit(main())
