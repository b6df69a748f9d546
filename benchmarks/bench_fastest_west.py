"""'Fastest Autograd in the West' (issue 21): a 10^4-op scalar graph, value and gradient per
iteration, tapegrad's replay beside PyTorch eager, CasADi's SX virtual machine and a
hand-written Numba value and gradient, in the same run.

Two graphs, each written once and run unchanged on every library (``_GRAPHS``):

- ``west``: the graph of A. Rogozhnikov's post "Fastest Autograd in the West" (2023), as
  issue 21 measured it: 100 scalar inputs, then op i % 4 appends softplus(nodes[-10]),
  sum(nodes[-30:-10:5]), nodes[-20] * nodes[-10], or the 4 values of
  softmax(stack(nodes[-4:])); the output is the last node.  Its values settle into a cycle,
  so the gradient at 10^4 ops is exactly zero in float64 (every library agrees); the
  gradients are compared where they are not (``test_gradients_agree``, 300 ops);
- ``mix``: 8 scalar inputs, op i % 8 one of mul, sin, add (an input), cos, exp, sub, tanh,
  mul by 0.5 (bounded values, gradients of order 1e-2 at 10^4 ops).

Group ``fastest west <graph> ops=<N>``, one value-and-gradient per round:

- ``tapegrad replay``: ``tg.trace(f, x).value_and_grad(x)`` (the one-point path: the plan's
  rows lowered once to a compact code with operands resolved, ``tapegrad/replay/lower.py``);
- ``tapegrad replay unfused``: the same call, its code lowered without superinstructions
  (``lower.FUSE = False`` while its plan is built): their gain, same run;
- ``tapegrad general interpreter``: the same kernel with every row run by the general
  interpreters (what replay did before the lowering): the lowering's gain, same run;
- ``torch eager``: the graph built on 0-d tensors and ``backward()``, every iteration;
- ``casadi SX``: an SX ``Function`` of (f, gradient) called through ``Function.buffer()``
  (its virtual machine; optional, skipped without casadi);
- ``numba hand-written``: ``@njit`` forward into an array of node values, then the reverse
  loop written by hand: the floor (west's softplus keeps its exp for the reverse, as
  replay does: recomputing it cost the floor ~4% of its time).

``extra_info``: ``tape_rows`` (tapegrad's traced rows), ``ns_per_tape_row``, ``code_rows``
and ``ns_per_code_row`` (the lowered code's rows before superinstructions, forward plus
reverse: the rows the interpreters execute per iteration, as CasADi's instructions cover its
forward and its gradient), CasADi's ``instructions`` and ``ns_per_instruction``, and each library's set-up
apart (``setup_s``: trace, SX construction, Numba compile).  The summary (ratios to CasADi
per instruction and per iteration, to PyTorch per iteration) comes from the JSON:

    python -m pytest benchmarks/bench_fastest_west.py --benchmark-json=/tmp/west.json
    python benchmarks/bench_fastest_west.py /tmp/west.json

``--benchmark-disable`` (CI): 1,000 ops instead of 10^4, so torch's eager graph stays quick.
"""
import contextlib
import functools
import json
import math
import sys
import time

import numpy as np
import pytest

from tapegrad import bench as tb

tb.passive_omp_waits()

REL = 1e-9


# -- the graphs, once for every library -------------------------------------------------
def west_graph(xs, n_ops, ops):
    """The post's graph over the scalars ``xs``; ``ops``: the library's softplus and a
    softmax of 4 scalars returning 4 scalars."""
    nodes = list(xs)
    for op in range(n_ops):
        c = op % 4
        if c == 0:
            nodes.append(ops["softplus"](nodes[-10]))
        elif c == 1:
            nodes.append(sum(nodes[-30:-10:5]))
        elif c == 2:
            nodes.append(nodes[-20] * nodes[-10])
        else:
            nodes.extend(ops["softmax4"](nodes[-4:]))
    return nodes[-1]


def mix_graph(xs, n_ops, ops):
    """mul, sin, add, cos, exp, sub, tanh, mul by a constant, in turn."""
    nodes = list(xs)
    for i in range(n_ops):
        c = i % 8
        if c == 0:
            v = nodes[-1] * nodes[-4]
        elif c == 1:
            v = ops["sin"](nodes[-1])
        elif c == 2:
            v = nodes[-1] + xs[(i // 8) % len(xs)]
        elif c == 3:
            v = ops["cos"](nodes[-1])
        elif c == 4:
            v = ops["exp"](nodes[-1])
        elif c == 5:
            v = nodes[-1] - nodes[-10]
        elif c == 6:
            v = ops["tanh"](nodes[-1])
        else:
            v = nodes[-1] * 0.5
        nodes.append(v)
    return nodes[-1]


_GRAPHS = {"west": (west_graph, 100), "mix": (mix_graph, 8)}


def _point(graph):
    return np.linspace(0.0, 1.0, _GRAPHS[graph][1])


def _tapegrad_ops():
    import tapegrad as tg
    import tapegrad.nn.functional as F

    def softmax4(v):
        s = F.softmax(tg.stack(v), dim=0)
        return [s[i] for i in range(4)]
    return {"softplus": F.softplus, "softmax4": softmax4, "sin": tg.sin, "cos": tg.cos,
            "exp": tg.exp, "tanh": tg.tanh}


def _torch_ops(torch):
    F = torch.nn.functional

    def softmax4(v):
        return list(F.softmax(torch.stack(v), dim=0).unbind())
    return {"softplus": F.softplus, "softmax4": softmax4, "sin": torch.sin, "cos": torch.cos,
            "exp": torch.exp, "tanh": torch.tanh}


def _casadi_ops(ca):
    def softmax4(v):
        e = [ca.exp(t) for t in v]
        s = e[0] + e[1] + e[2] + e[3]
        return [t / s for t in e]
    return {"softplus": lambda t: ca.log1p(ca.exp(t)), "softmax4": softmax4, "sin": ca.sin,
            "cos": ca.cos, "exp": ca.exp, "tanh": ca.tanh}


# -- the libraries ------------------------------------------------------------------------
@contextlib.contextmanager
def _fusing(on):
    """Code lowered with (or without) superinstructions meanwhile (``lower.FUSE``)."""
    from tapegrad.replay import lower
    was, lower.FUSE = lower.FUSE, on
    try:
        yield
    finally:
        lower.FUSE = was


def _traced(graph, n_ops, fuse=True):
    import tapegrad as tg
    tg.warmup()  # the kernels from Numba's cache now, not interpreted meanwhile
    fn, m = _GRAPHS[graph]
    ops = _tapegrad_ops()
    t0 = time.perf_counter()
    t = tg.trace(lambda x: fn([x[j] for j in range(m)], n_ops, ops), _point(graph))
    with _fusing(fuse):
        t.value_and_grad(_point(graph))  # the plan and its code are built here
    setup = time.perf_counter() - t0
    from tapegrad.replay import lower
    p = t._plan  # (its rows lowered without superinstructions: the code's rows each way)
    rows = sum(len(lower.point_code(r, p.offs, p.meta, p.consts, [])) for r in (p.fwd, p.rev))
    return t, {"setup_s": setup, "tape_rows": len(t.rows), "code_rows": rows}


def _tapegrad_replay(graph, n_ops, fuse=True):
    t, info = _traced(graph, n_ops, fuse)
    return t.value_and_grad, info


def _tapegrad_general(graph, n_ops):
    from tapegrad import _kernels
    t, info = _traced(graph, n_ops)
    p = t._make_plan()
    ints = p.packed(lowered=False)  # one RUN each way
    work = np.empty(p.point_need())
    kernel = _kernels._replay_point

    def call(x):
        g = np.empty(len(p.in_elems))
        kernel(ints, x, g, work)
        return work[0], g
    return call, info


def _torch(graph, n_ops):
    torch = pytest.importorskip("torch")
    torch.set_num_threads(1)
    fn, _ = _GRAPHS[graph]
    ops = _torch_ops(torch)

    def call(x):
        t = torch.tensor(x, requires_grad=True)
        y = fn(list(t.unbind()), n_ops, ops)
        y.backward()
        return float(y.detach()), t.grad.numpy()
    return call, {}


def _casadi(graph, n_ops):
    ca = pytest.importorskip("casadi")
    fn, m = _GRAPHS[graph]
    t0 = time.perf_counter()
    xs = ca.SX.sym("x", m)
    y = fn([xs[j] for j in range(m)], n_ops, _casadi_ops(ca))
    F = ca.Function("F", [xs], [y, ca.gradient(y, xs)])
    setup = time.perf_counter() - t0
    return (tb.casadi_value_and_grad(F, m),
            {"setup_s": setup, "instructions": F.n_instructions()})


@functools.lru_cache(maxsize=None)
def _jitted(graph):
    numba = pytest.importorskip("numba")
    return numba.njit(cache=True)({"west": _west_vg, "mix": _mix_vg}[graph])


def _numba(graph, n_ops):
    t0 = time.perf_counter()
    jitted = _jitted(graph)
    m = _GRAPHS[graph][1]
    size = m + (7 * n_ops) // 4 + 4  # west appends at most 7 nodes per 4 ops, mix 1 per op
    vals, adj, g = np.empty(size), np.empty(size), np.empty(m)
    bufs = (vals, adj, g, np.empty(size)) if graph == "west" else (vals, adj, g)
    jitted(_point(graph), n_ops, *bufs)
    setup = time.perf_counter() - t0  # (the compile: in the first test of each graph)

    def call(x):
        return jitted(x, n_ops, *bufs), g
    return call, {"setup_s": setup}


def _west_vg(x, n_ops, v, a, g, z):
    """The post's graph, value and gradient written by hand (nodes in ``v``, adjoints in
    ``a``, softplus's exp kept in ``z`` for the reverse)."""
    m = x.shape[0]
    for j in range(m):
        v[j] = x[j]
    p = m
    for op in range(n_ops):
        c = op % 4
        if c == 0:
            t = v[p - 10]
            if t > 20.0:
                v[p] = t
            else:
                z[p] = math.exp(t)
                v[p] = math.log1p(z[p])
            p += 1
        elif c == 1:
            v[p] = v[p - 30] + v[p - 25] + v[p - 20] + v[p - 15]
            p += 1
        elif c == 2:
            v[p] = v[p - 20] * v[p - 10]
            p += 1
        else:  # softmax as F.softmax computes it: exp(x - max) / sum(exp(x - max))
            mx = max(max(v[p - 4], v[p - 3]), max(v[p - 2], v[p - 1]))
            s = 0.0
            for i in range(4):
                e = math.exp(v[p - 4 + i] - mx)
                v[p + i] = e
                s += e
            for i in range(4):
                v[p + i] /= s
            p += 4
    a[:p] = 0.0
    a[p - 1] = 1.0
    out = v[p - 1]
    for op in range(n_ops - 1, -1, -1):
        c = op % 4
        if c == 3:
            p -= 4
            dot = 0.0
            for i in range(4):
                dot += a[p + i] * v[p + i]
            for i in range(4):
                a[p - 4 + i] += v[p + i] * (a[p + i] - dot)
            continue
        p -= 1
        gy = a[p]
        if c == 0:
            t = v[p - 10]
            if t > 20.0:
                a[p - 10] += gy
            else:
                a[p - 10] += gy * (z[p] / (z[p] + 1.0))
        elif c == 1:
            for d in (30, 25, 20, 15):
                a[p - d] += gy
        else:
            a[p - 20] += gy * v[p - 10]
            a[p - 10] += gy * v[p - 20]
    for j in range(m):
        g[j] = a[j]
    return out


def _mix_vg(x, n_ops, v, a, g):
    """``mix_graph``'s value and gradient written by hand."""
    m = x.shape[0]
    for j in range(m):
        v[j] = x[j]
    for i in range(n_ops):
        p, c = m + i, i % 8
        if c == 0:
            v[p] = v[p - 1] * v[p - 4]
        elif c == 1:
            v[p] = math.sin(v[p - 1])
        elif c == 2:
            v[p] = v[p - 1] + x[(i // 8) % m]
        elif c == 3:
            v[p] = math.cos(v[p - 1])
        elif c == 4:
            v[p] = math.exp(v[p - 1])
        elif c == 5:
            v[p] = v[p - 1] - v[p - 10]
        elif c == 6:
            v[p] = math.tanh(v[p - 1])
        else:
            v[p] = v[p - 1] * 0.5
    a[:m + n_ops] = 0.0
    a[m + n_ops - 1] = 1.0
    for i in range(n_ops - 1, -1, -1):
        p, c = m + i, i % 8
        gy = a[p]
        if c == 0:
            a[p - 1] += gy * v[p - 4]
            a[p - 4] += gy * v[p - 1]
        elif c == 1:
            a[p - 1] += gy * math.cos(v[p - 1])
        elif c == 2:
            a[p - 1] += gy
            a[(i // 8) % m] += gy
        elif c == 3:
            a[p - 1] -= gy * math.sin(v[p - 1])
        elif c == 4:
            a[p - 1] += gy * v[p]
        elif c == 5:
            a[p - 1] += gy
            a[p - 10] -= gy
        elif c == 6:
            a[p - 1] += gy * (1.0 - v[p] * v[p])
        else:
            a[p - 1] += gy * 0.5
    for j in range(m):
        g[j] = a[j]
    return v[m + n_ops - 1]


LIBRARIES = {"tapegrad replay": _tapegrad_replay,
             "tapegrad replay unfused": functools.partial(_tapegrad_replay, fuse=False),
             "tapegrad general interpreter": _tapegrad_general,
             "torch eager": _torch, "casadi SX": _casadi, "numba hand-written": _numba}


def _ops(request):
    return 1000 if request.config.getoption("benchmark_disable", False) else 10_000


def _check(got, want, what):
    v, g = got
    np.testing.assert_allclose(v, want[0], rtol=REL, err_msg=what)
    scale = max(np.abs(want[1]).max(), 1e-300)
    np.testing.assert_allclose(g, want[1], rtol=0, atol=REL * scale, err_msg=what)


@pytest.mark.parametrize("lib", list(LIBRARIES))
@pytest.mark.parametrize("graph", list(_GRAPHS))
def test_fastest_west(phase, request, graph, lib):
    n_ops = _ops(request)
    call, info = LIBRARIES[lib](graph, n_ops)
    x = _point(graph)
    got = call(x)  # the first call (plans, compiles) is not timed
    want_call, _ = _numba(graph, n_ops)
    _check(got, want_call(x), f"{lib} on {graph}")
    med = phase(lambda: call(x), group=f"fastest west {graph} ops={n_ops}", library=lib,
                phase="value+grad", ops=n_ops, budget=1.0, **info)
    if med is not None and "tape_rows" in info:
        phase.benchmark.extra_info["ns_per_tape_row"] = med / info["tape_rows"] * 1e9
        phase.benchmark.extra_info["ns_per_code_row"] = med / info["code_rows"] * 1e9
    if med is not None and "instructions" in info:
        phase.benchmark.extra_info["ns_per_instruction"] = med / info["instructions"] * 1e9


@pytest.mark.parametrize("graph", list(_GRAPHS))
def test_gradients_agree(graph):
    """Every library's value and gradient at 300 ops (gradients not yet 0) against the
    hand-written one."""
    want = _numba(graph, 300)[0](_point(graph))
    assert np.abs(want[1]).max() > 0
    for lib in ("tapegrad replay", "torch eager", "casadi SX"):
        try:
            call, _ = LIBRARIES[lib](graph, 300)
        except pytest.skip.Exception:
            continue
        _check(call(_point(graph)), want, f"{lib} on {graph}")


def summary(path):
    """Markdown tables from a pytest-benchmark JSON of this file: medians, ratios."""
    rows = {}
    for b in json.load(open(path))["benchmarks"]:
        if b["group"].startswith("fastest west"):
            rows.setdefault(b["group"], {})[b["extra_info"]["library"]] = b
    for group, libs in rows.items():
        ref = libs.get("tapegrad replay")
        print(f"\n### {group}\n")
        print("| library | median | per row / instruction | tapegrad replay / library | "
              "set-up |")
        print("|---|---:|---:|---:|---:|")
        for lib, b in libs.items():
            info, med = b["extra_info"], b["stats"]["median"]
            per = info.get("ns_per_tape_row", info.get("ns_per_instruction"))
            unit = " / row" if "ns_per_tape_row" in info else " / instr"
            cells = [f"{med * 1e3:.3f} ms", f"{per:.1f} ns{unit}" if per else "",
                     f"{ref['stats']['median'] / med:.3g}" if ref else "",
                     f"{info['setup_s']:.2f} s" if "setup_s" in info else ""]
            print(f"| {lib} | " + " | ".join(cells) + " |")
        cas = libs.get("casadi SX")
        if ref and cas:
            ci = cas["extra_info"]["ns_per_instruction"]
            r = ref["extra_info"]["ns_per_tape_row"] / ci
            print(f"\ntapegrad ns per tape row / CasADi ns per instruction: {r:.2f} (goal <= 2)")
            # a tape row runs twice (forward, then reverse) as lowered code rows, while
            # CasADi's instructions count its forward and its gradient's: per row executed
            r = ref["extra_info"]["ns_per_code_row"] / ci
            print(f"tapegrad ns per executed code row (forward + reverse) / CasADi ns per "
                  f"instruction: {r:.2f}")
            r = ref["stats"]["median"] / cas["stats"]["median"]
            print(f"tapegrad replay / CasADi per iteration: {r:.2f}")
        tor = libs.get("torch eager")
        if ref and tor:
            r = tor["stats"]["median"] / ref["stats"]["median"]
            print(f"torch eager / tapegrad replay per iteration: {r:,.0f}x (goal >= 1,000x)")


if __name__ == "__main__":
    summary(sys.argv[1])
