"""One builder per library for the eager scalar workload ``y = y * a + sin(y) * b``;
``tensor_workload``, ``hips_workload`` and ``phase_callables`` also serve
bench_eager_vector.py.

Each builder returns a :class:`Workload` for ``n_ops`` recorded operations (4 per step)
and skips the calling test cleanly (``pytest.importorskip``) when its library is missing.
A workload offers the phases its library has:

- ``record()``: the forward, building whatever the library keeps for the backward;
- ``backward(graph)``: the reverse pass over one recorded graph (fresh each round);
- ``fwd_bwd()``: both in one call (the only form HIPS ``autograd.grad`` has);
- ``grad()``: ``(y, dy/da)`` for the correctness check against tapegrad.

The constants keep every value and adjoint in the normal float64 range at 10^5 ops:
``y`` climbs from 0.5 towards the fixed point 1.895 and each step scales the adjoint by
about 0.998, so no library runs into denormals (which would make its sweep look slow)
or into exact zeros (which a sweep might skip).
"""
import math
from dataclasses import dataclass
from typing import Callable, Optional

import pytest

Y0, A, B = 0.5, 0.999, 0.002
OPS_PER_STEP = 4  # mul, sin, mul, add


@dataclass
class Workload:
    library: str
    n_ops: int
    record: Optional[Callable] = None
    backward: Optional[Callable] = None
    fwd_bwd: Optional[Callable] = None
    grad: Optional[Callable] = None
    tape_bytes: Optional[Callable] = None  # graph -> bytes the library's record holds
    unary: str = "sin"  # the unary op the library could use (micrograd has no sin)
    note: str = ""


def steps(n_ops):
    return n_ops // OPS_PER_STEP


def phase_callables(w, phase_name):
    """``(target, setup, graph)`` timing one phase of workload ``w``: ``setup`` (untimed)
    releases the previous round's graph, and for ``backward`` records a fresh one into
    ``graph["g"]``; ``forward`` leaves its graph there."""
    graph = {}
    if phase_name == "forward":
        def target():
            graph["g"] = w.record()
        return target, graph.clear, graph
    if phase_name == "backward":
        def setup():
            graph.clear()
            graph["g"] = w.record()
        return lambda: w.backward(graph["g"]), setup, graph
    return w.fwd_bwd, graph.clear, graph


def tensor_workload(library, n_ops, record, leaves, readout, tape_bytes=None, unary="sin"):
    """A workload on PyTorch-style tensors (tapegrad's and PyTorch's) from ``record()``,
    which returns the 0-d result: ``backward`` clears the ``leaves``' ``.grad`` first and
    ``grad()`` returns ``readout(y)`` after one record and backward."""
    def backward(y):
        for leaf in leaves:
            leaf.grad = None
        y.backward()

    def fwd_bwd():
        backward(record())

    def grad():
        y = record()
        backward(y)
        return readout(y)

    return Workload(library, n_ops, record, backward, fwd_bwd, grad, tape_bytes, unary)


def _tensor_eager(library, n_ops, unary, a, b, y0, tape_bytes=None):
    """The workload on PyTorch-style tensors (tapegrad's and PyTorch's): leaves ``a`` and
    ``b`` require grad."""
    k = steps(n_ops)

    def record():
        y = y0
        for _ in range(k):
            y = y * a + getattr(y, unary)() * b
        return y

    return tensor_workload(library, n_ops, record, (a, b), lambda y: (y.item(), a.grad.item()),
                           tape_bytes, unary)


def tapegrad_eager(n_ops, unary="sin"):
    """tapegrad: 0-d float64 tensors; a and b require grad."""
    tg = pytest.importorskip("tapegrad")
    from tapegrad.tape import current_tape

    tg.warmup(replay=False)  # the sweep loaded before timing, not interpreted meanwhile
    return _tensor_eager("tapegrad", n_ops, unary, tg.tensor(A, requires_grad=True),
                         tg.tensor(B, requires_grad=True), tg.tensor(Y0),
                         tape_bytes=lambda y: current_tape().nbytes())


def torch_eager(n_ops, unary="sin"):
    """PyTorch: 0-d float64 tensors; a and b require grad."""
    torch = pytest.importorskip("torch")
    f64 = torch.float64
    return _tensor_eager(f"torch {torch.__version__}", n_ops, unary,
                         torch.tensor(A, dtype=f64, requires_grad=True),
                         torch.tensor(B, dtype=f64, requires_grad=True),
                         torch.tensor(Y0, dtype=f64))


def micrograd_eager(n_ops):
    """micrograd (PyPI 0.1.0): Value has neither sin nor tanh, so relu stands in for sin.

    Same op count (mul, relu, mul, add); its backward's recursive topological sort
    raises RecursionError on deep graphs at the default recursion limit.
    """
    engine = pytest.importorskip("micrograd.engine")
    Value = engine.Value
    k = steps(n_ops)
    a = Value(A)
    b = Value(B)

    def record():
        y = Value(Y0)
        for _ in range(k):
            y = y * a + y.relu() * b
        return y

    def backward(y):
        a.grad = 0
        b.grad = 0
        y.backward()

    def fwd_bwd():
        backward(record())
        return a.grad

    def grad():
        y = record()
        backward(y)
        return y.data, a.grad

    note = "micrograd 0.1.0 has no sin (nor tanh): relu in its place, same op count"
    return Workload("micrograd", n_ops, record, backward, fwd_bwd, grad, unary="relu",
                    note=note)


def hips_workload(n_ops, f, args, argnum, readout):
    """HIPS autograd on ``f(*args)``, differentiated in ``argnum`` (an int or a tuple).

    ``fwd_bwd`` is ``autograd.grad`` (forward and backward in one call).  ``record`` and
    ``backward`` use ``autograd.make_vjp``, which returns the recorded graph's VJP, so the
    two phases can also be timed apart.  ``grad()`` is ``readout(y, vjp(1.0))``.
    """
    autograd = pytest.importorskip("autograd")
    grad_f = autograd.grad(f, argnum)
    make = autograd.make_vjp(f, argnum)

    def record():
        return make(*args)  # (vjp, y)

    def backward(graph):
        return graph[0](1.0)

    def fwd_bwd():
        return grad_f(*args)

    def grad():
        vjp, y = make(*args)
        return readout(y, vjp(1.0))

    return Workload("hips-autograd", n_ops, record, backward, fwd_bwd, grad)


def hips_eager(n_ops):
    """HIPS autograd on Python floats, dy/da (see hips_workload)."""
    anp = pytest.importorskip("autograd.numpy")
    k = steps(n_ops)

    def f(a, b):
        y = Y0
        for _ in range(k):
            y = y * a + anp.sin(y) * b
        return y

    return hips_workload(n_ops, f, (A, B), 0, lambda y, ga: (float(y), float(ga)))


def floats_eager(n_ops):
    """Plain Python floats and math.sin: the forward floor (no record, no backward)."""
    k = steps(n_ops)
    sin = math.sin

    def record():
        y = Y0
        a = A
        b = B
        for _ in range(k):
            y = y * a + sin(y) * b
        return y

    return Workload("python-floats", n_ops, record)


def numba_eager(n_ops):
    """Hand-written Numba forward (values into an array) and reverse loop: the limit."""
    numba = pytest.importorskip("numba")
    np = pytest.importorskip("numpy")
    k = steps(n_ops)
    fwd, rev = _numba_kernels(numba)
    fwd(Y0, A, B, np.empty((1, 2)))  # compile outside every timed round
    rev(np.empty((1, 2)), A, B)

    def record():
        tape = np.empty((k, 2))
        return fwd(Y0, A, B, tape), tape

    def backward(graph):
        return rev(graph[1], A, B)

    def fwd_bwd():
        return backward(record())[0]

    def grad():
        y, tape = record()
        return y, rev(tape, A, B)[0]

    return Workload("numba (hand-written)", n_ops, record, backward, fwd_bwd, grad)


_NUMBA = []


def _numba_kernels(numba):
    if _NUMBA:
        return _NUMBA[0]

    @numba.njit(nogil=True)
    def forward(y, a, b, tape):
        # tape[i] = (y_i, sin y_i): what the reverse needs
        for i in range(tape.shape[0]):
            s = math.sin(y)
            tape[i, 0] = y
            tape[i, 1] = s
            y = y * a + s * b
        return y

    @numba.njit(nogil=True)
    def reverse(tape, a, b):
        # y' = y a + sin(y) b: da += gy y, db += gy sin y, gy *= a + b cos y
        gy = 1.0
        ga = 0.0
        gb = 0.0
        for i in range(tape.shape[0] - 1, -1, -1):
            y = tape[i, 0]
            ga += gy * y
            gb += gy * tape[i, 1]
            gy *= a + b * math.cos(y)
        return ga, gb, gy

    _NUMBA.append((forward, reverse))
    return forward, reverse


BUILDERS = {
    "tapegrad": tapegrad_eager,
    "torch": torch_eager,
    "micrograd": micrograd_eager,
    "hips-autograd": hips_eager,
    "python-floats": floats_eager,
    "numba": numba_eager,
}
