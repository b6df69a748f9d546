"""Differential fuzz of replay against eager over the ways f is *called*: it extends
tests/fuzz_replay_diff20.py (its world of outside state, its op and statement templates and
mutations) with f's signature and the call paths, which that fuzz keeps fixed at f(x):

- signatures: ``f(x)``, ``f(x, k=1.5, dl=DL)`` (a float default and a mutable list default,
  rebound or written between calls), ``f(x, s)`` with a Python float ``s`` passed at each call
  (argnums=0: not differentiated, its value changes), ``f(x, y)`` with argnums=(0, 1);
- more world changes: a closure's tensor ``W``/``BUF`` switching ``requires_grad``, f's
  ``__defaults__`` rebound, its list default written;
- more statements: unbind, transpose then in-place, expand then a clone written in place,
  requires_grad_ on a detached copy, nested grad modes, a seeded local generator, draws
  from a Generator of the caller's and from NumPy's global one (the compiled call with
  tensors must draw as f does: one trace tried and failed, then f eagerly);
- call paths compared with eager at each step: ``value_and_grad`` (one point),
  ``value_and_grad_batch``, ``grad_batch``, ``value_batch``, the compiled call with tensors
  inside an eager graph (value, gradients of the inputs *and* of ``W`` where W requires
  grad), a float32 tensor call (eager, must equal f's own), and a later call at another
  input shape (a new signature).

Values and gradients must agree within 1e-9 (NumPy's and Numba's libm may differ in the last
bits: replay/__init__.py ``_self_check``); a path may instead refuse loudly (DivergenceError,
a trace refused), never answer wrongly.

    PYTHONPATH=. python tests/fuzz_replay_api22.py --start 0 --count 300

Prints each failing program and, last, one JSON line: cases by outcome, failures.
"""
import collections
import random
import sys
import textwrap
import traceback
import warnings

import numpy as np

import tapegrad as tg
from tapegrad.replay import DivergenceError, _Draws
from tapegrad.tensor import EagerOnlyError

warnings.simplefilter("ignore")
sys.path.insert(0, __file__.rsplit("/", 1)[0])
import fuzz_replay_diff20 as base  # noqa: E402

WORLD = base.WORLD + '''
DL = [0.5]
GEN = tg.Generator().manual_seed(11)
'''
# the signatures: (def line, extra call arguments drawn per call, argnums, extra templates)
SIGS = {
    "x": ("def f(x):", 0),
    "kw": ("def f(x, k=1.5, dl=DL):", 0),
    "s": ("def f(x, s):", 0),
    "xy": ("def f(x, y):", (0, 1)),
}
EXTRA = {
    "x": [],
    "kw": ["{a} * k", "{a} * dl[0] + k", "({a} * k if k > 1.0 else {a}.sin())"],
    "s": ["{a} * s", "{a} + s * {b}", "({a} * 2.0 if s > 0.0 else {a} * {b})",
          "{a}.clamp(min=s)", "tg.where({a} > s, {a}, {b})"],
    "xy": ["{a} * y", "tg.maximum({a}, y)", "{a} + y.detach()", "tg.where(y > 0, {a}, y)"],
}
NEW_MUTATE = [
    "W.requires_grad_(not W.requires_grad)",
    "BUF.requires_grad_(not BUF.requires_grad)",
    "f.__defaults__ = tuple(d * 2.0 if isinstance(d, float) else d for d in "
    "f.__defaults__ or ())",
    "DL[0] = DL[0] - 1.0",
]
# templates every signature draws from more often than the rest: they read W
W_READS = ["{a} * W", "(W * W).sum() * {a}", "{a} * W.detach()", "{a} + W.data * 2.0"]
STMT = [
    "{o} = {a} * 1.0\n{o} = tg.stack({o}.reshape(-1).unbind(0)).reshape({a}.shape) * {b}",
    "{o} = {a} * 1.0\nif {o}.dim() == 2:\n    {o}.T[0].add_({b}.T[-1])",
    "{o} = {a}.reshape(-1)[:1].expand(3).clone()\n{o}.clamp_(min=0.0)\n{o} = {o}.sum() * {b}",
    "{o} = {a}.detach().clone().requires_grad_()\n{o} = {o} * {b} + {a}",
    "with tg.set_grad_enabled(False):\n    {o} = {a} * 2.0\n    with tg.set_grad_enabled(True):"
    "\n        {o} = {o} + {b}.sin()",
    "_g = tg.Generator().manual_seed(3)\n{o} = {a} * 1.0",
    "{o} = {a} * tg.rand({a}.shape, generator=GEN)",
    "{o} = {a} * float(np.random.rand()) + {b}",
    "{o} = {a} * 1.0\nwith tg.no_grad():\n    {o}.reshape(-1)[-1:].mul_(0.5)\n{o} = {o} * {b}",
    "{o} = {a}.clone()\n{o}.reshape(-1)[0:1] = {b}.reshape(-1)[-1:] * 2.0",
]


def gen(rng, sig, n):
    names, lines = ["x"], []
    for i in range(n):
        o = f"v{i}"
        a, b = rng.choice(names), rng.choice(names)
        r = rng.random()
        if r < 0.15:
            lines += rng.choice(STMT).format(o=o, a=a, b=b).split("\n")
        elif r < 0.35:
            lines += rng.choice(base.STMT).format(o=o, a=a, b=b).split("\n")
        elif r < 0.6:
            lines.append(f"{o} = " + rng.choice(EXTRA[sig] + W_READS).format(a=a, b=b))
        else:
            lines.append(f"{o} = " + rng.choice(base.ANY).format(a=a, b=b))
        names.append(o)
    coef = rng.sample(range(1, 9), n)
    tail = " + ".join(f"{v} * {c}.0" for v, c in zip(names[1:], coef, strict=True))
    y = " + y * 0.5" if sig == "xy" else ""
    lines.append(f"return ({tail} + x * 0.0{y}).sum()")
    return SIGS[sig][0] + "\n" + textwrap.indent("\n".join(lines), "    ") + "\n"


def build(src, shape):
    ns = {"tg": tg, "np": np, "S": shape, "__name__": "fuzzprog"}
    exec(WORLD, ns)  # noqa: S102 (the fuzz's own generated code)
    exec(base.HEAD, ns)  # noqa: S102
    exec(src, ns)  # noqa: S102
    return ns


def _args(rng, sig, shape, grid):
    """f's arguments at one point: arrays first (x, and y for "xy"), then a Python float."""
    x = base.point(rng, shape, grid)
    if sig == "xy":
        return [x, base.point(rng, shape, grid)]
    if sig == "s":
        return [x, float(rng.choice([-1.0, 0.5, 1.0]))]
    return [x]


def _diff(sig):
    return 2 if sig == "xy" else 1


def eager(ns, args, sig, extra=None):
    """(value, [gradient per differentiated input], W.grad or None) of f, eagerly; ``extra``
    wraps f's result in more of the caller's graph (the compiled call inside an eager graph)."""
    f, W = ns["f"], ns["W"]
    ts = [tg.tensor(a.copy(), requires_grad=True) if isinstance(a, np.ndarray) else a
          for a in args]
    y = f(*ts)
    if extra is not None:
        y = extra(y, ts[0])
    wrt = ts[:_diff(sig)] + ([W] if W.requires_grad else [])
    gs = tg.autograd.grad(y, wrt, allow_unused=True)
    gs = [np.zeros(np.shape(t.detach().numpy())) if g is None else g.numpy().copy()
          for g, t in zip(gs, wrt, strict=True)]
    return float(y), gs[:_diff(sig)], (gs[-1] if W.requires_grad else None)


def _call_compiled(ns, c, args, sig, extra):
    """The compiled call with tensors inside an eager graph: as ``eager``."""
    W = ns["W"]
    ts = [tg.tensor(a.copy(), requires_grad=True) if isinstance(a, np.ndarray) else a
          for a in args]
    y = extra(c(*ts), ts[0])
    wrt = ts[:_diff(sig)] + ([W] if W.requires_grad else [])
    gs = tg.autograd.grad(y, wrt, allow_unused=True)
    gs = [np.zeros(np.shape(t.detach().numpy())) if g is None else g.numpy()
          for g, t in zip(gs, wrt, strict=True)]
    return float(y), gs[:_diff(sig)], (gs[-1] if W.requires_grad else None)


def _extra(y, x):  # more of the caller's graph around the compiled call
    return y * 2.0 + (x * x).sum()


same = base.same


def _finite(e):
    return np.isfinite(e[0]) and all(np.all(np.isfinite(g)) for g in e[1]) and \
        (e[2] is None or np.all(np.isfinite(e[2])))


def _grads(g, sig):
    return list(g) if sig == "xy" else [g]


def _reseed(ns):
    """The generators f may draw from, at the same state before each call compared."""
    ns["GEN"].manual_seed(11)
    np.random.seed(11)
    tg.manual_seed(11)


def _refused(ex):
    """A loud refusal: a point on another branch (on_divergence), or a trace refused (f
    draws random numbers, computes in float32, writes where replay cannot follow...)."""
    return isinstance(ex, (DivergenceError, EagerOnlyError, _Draws, NotImplementedError)) or \
        str(ex).startswith(("tapegrad.trace:", "trace:"))


def _step(ns, c, sig, pts, E, fails, step):
    f = ns["f"]
    for args, (ev, eg, _) in zip(pts, E, strict=True):
        try:
            v, g = c.value_and_grad(*args)
            if not (same(v, ev) and all(same(a, b) for a, b in zip(_grads(g, sig), eg,
                                                                   strict=True))):
                fails.append(f"step {step} value_and_grad {args}: {v} {g} vs eager {ev} {eg}")
        except Exception as ex:  # noqa: BLE001 (a fuzz: every failure is reported)
            if _refused(ex):  # (the batch is refused too; f may still run eagerly when
                break  # called with tensors)
            fails.append(f"step {step} value_and_grad raised {type(ex).__name__}: {ex}")
    B = [np.stack([p[j] for p in pts]) if isinstance(pts[0][j], np.ndarray)
         else np.array([p[j] for p in pts]) for j in range(len(pts[0]))]
    try:
        V, G = c.value_and_grad_batch(*B)
        G2 = c.grad_batch(*B)
        V2 = c.value_batch(*B)
        for i, (ev, eg, _) in enumerate(E):
            gi = [G[j][i] for j in range(2)] if sig == "xy" else [G[i]]
            g2 = [G2[j][i] for j in range(2)] if sig == "xy" else [G2[i]]
            if not (same(V[i], ev) and same(V2[i], ev) and
                    all(same(a, b) and same(c2, b) for a, c2, b in zip(gi, g2, eg,
                                                                        strict=True))):
                fails.append(f"step {step} batch row {i}: {V[i]} {V2[i]} {gi} {g2} vs eager "
                             f"{ev} {eg}")
    except Exception as ex:  # noqa: BLE001
        if not _refused(ex):
            fails.append(f"step {step} batch raised {type(ex).__name__}: {ex}")
    try:  # inside an eager graph, with W's gradient where W requires grad; the same draws
        _reseed(ns)  # (f drawing random numbers runs eagerly: a failed trace puts the
        e = eager(ns, pts[0], sig, _extra)  # generators back)
        _reseed(ns)
        again = eager(ns, pts[0], sig, _extra)  # (f writes a buffer it reads: no reference)
        _reseed(ns)
        got = _call_compiled(ns, c, pts[0], sig, _extra)
        ok = same(got[0], e[0]) and all(same(a, b) for a, b in zip(got[1], e[1], strict=True))
        ok = ok and (e[2] is None) == (got[2] is None) and (e[2] is None or same(got[2], e[2]))
        if not ok and same(again[0], e[0]):
            fails.append(f"step {step} compiled(tensors) in a graph: {got} vs eager {e}")
    except Exception as ex:  # noqa: BLE001
        if not _refused(ex):
            fails.append(f"step {step} compiled(tensors) raised {type(ex).__name__}: {ex}")
    try:  # float32 tensors: f's own float32 result (f runs eagerly)
        _reseed(ns)
        a32 = [tg.tensor(a, dtype=tg.float32) if isinstance(a, np.ndarray) else a
               for a in pts[0]]
        want = f(*a32)
    except Exception:  # noqa: BLE001 (f itself refuses float32 input)
        want = None
    if want is not None:
        try:
            _reseed(ns)
            got = c(*[tg.tensor(a, dtype=tg.float32) if isinstance(a, np.ndarray) else a
                      for a in pts[0]])
            _reseed(ns)
            again = f(*a32)
            if (got.dtype != want.dtype or not np.array_equal(got.detach().numpy(),
                                                               want.detach().numpy())) and \
                    np.array_equal(again.detach().numpy(), want.detach().numpy()):
                fails.append(f"step {step} float32 call: {got!r} vs eager {want!r}")
        except Exception as ex:  # noqa: BLE001
            fails.append(f"step {step} float32 call raised {type(ex).__name__}: {ex}")


def check(src, seed, sig, shape, steps=4):
    rng = np.random.default_rng(seed)
    prng = random.Random(seed)
    ns = build(src, shape)
    grid = bool(seed % 2)
    try:
        e0 = eager(ns, _args(rng, sig, shape, grid), sig)
    except Exception:  # noqa: BLE001
        return "eager-error"
    if not _finite(e0):
        return "nonfinite"
    c = tg.compile(ns["f"], argnums=SIGS[sig][1])
    fails, shapes = [], [shape] * (steps - 1) + [prng.choice(base.SHAPES)]
    for step in range(steps):
        if step and prng.random() < 0.7:
            for m in prng.sample(base.MUTATE, prng.randint(0, 1)) + \
                    prng.sample(NEW_MUTATE, prng.randint(1, 2)):
                try:
                    exec(m, ns)  # noqa: S102
                except RuntimeError:  # (BUF.numpy() while BUF requires grad)
                    pass
        pts = [_args(rng, sig, shapes[step], grid or k % 2 == 0) for k in range(3)]
        try:
            E = [eager(ns, p, sig) for p in pts]
        except Exception:  # noqa: BLE001 (the mutated world, or the new shape, breaks f)
            break
        if not all(_finite(e) for e in E):
            break
        try:
            _step(ns, c, sig, pts, E, fails, step)
        except Exception as ex:  # noqa: BLE001
            fails.append(f"step {step} HARNESS {type(ex).__name__}: {ex}")
        if fails:
            break
    if not fails and not c.traces:
        return "no-trace"  # (every trace refused: calls with tensors ran f eagerly, agreeing)
    return fails


def run(start, count, out=print):
    stats, failures = collections.Counter(), []
    for seed in range(start, start + count):
        prng = random.Random(seed * 7919 + 22)
        sig = prng.choice(list(SIGS))
        shape = prng.choice(base.SHAPES)
        src = gen(prng, sig, prng.randint(2, 5))
        try:
            r = check(src, seed, sig, shape)
        except Exception as e:  # noqa: BLE001
            r = [f"HARNESS {type(e).__name__}: {e}\n{traceback.format_exc()[-800:]}"]
        if isinstance(r, str):
            stats[r] += 1
            continue
        stats["ok" if not r else "failed"] += 1
        if r:
            failures.append(f"seed {seed} sig {sig} shape {shape}:\n{src}" + "\n".join(r[:3]))
            out(failures[-1])
    return stats, failures


if __name__ == "__main__":
    base.main(run=run)
