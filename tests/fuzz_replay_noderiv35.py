"""Differential fuzz of replay against eager around values that carry no gradient: random
chains over f's input mixing ops without a derivative (``//``, heaviside, unique's values,
scatter's reduce=, bincount), detach / .data, no_grad and set_grad_enabled(False) blocks,
comparisons and bool masks, integer results (argmax, sort's indices, an int cast), where,
sign / round / floor, in-place writes on a detached alias and autograd.grad inside f.  Each
program runs eagerly in PyTorch (the oracle) and tapegrad, then by replay: the trace's
value_and_grad at new points (half of them ties), a batch, the trace saved and loaded, and
compile(f) called with tensors (backward).  Replay must give eager's value and gradient,
raise eager's error, or refuse in tapegrad's words.

    PYTHONPATH=. python tests/fuzz_replay_noderiv35.py --start 0 --count 200

Prints each failing program and, last, one JSON line: cases by outcome, failures.
"""
import argparse
import collections
import io
import json
import random
import warnings

import numpy as np
import torch

import tapegrad as tg


def _nograd(T, v, x):
    with T.no_grad():
        return v * 2 + 1


def _setgrad(T, v, x):
    with T.set_grad_enabled(False):
        return (v * x).floor()


def _alias_write(T, v, x):
    d = v.detach()
    d.mul_(0.5)
    return v + x


STEPS = {
    "fdiv": lambda T, v, x: v // 0.3,
    "fdiv_x": lambda T, v, x: (v * x) // 0.7 + x,
    "heavi": lambda T, v, x: T.heaviside(v, T.tensor(0.5, dtype=T.float64)),
    "uniq": lambda T, v, x: T.unique(v.floor()).sum() + v,
    "scatter_red": lambda T, v, x: T.ones(3, dtype=T.float64).scatter(
        0, T.tensor([0, 2, 2]), v, reduce="multiply") + v,
    "bincount": lambda T, v, x: T.bincount(T.tensor([2, 0, 2]), weights=v) * x,
    "inner_grad": lambda T, v, x: T.autograd.grad((v * x).sum() + (x * x).sum(), x,
                                                  create_graph=True)[0] + v,
    "detach": lambda T, v, x: v.detach(),
    "data": lambda T, v, x: v.data * 3,
    "nograd": _nograd,
    "setgrad": _setgrad,
    "cmp": lambda T, v, x: (v > 0.1).double(),
    "mask": lambda T, v, x: v * (v < x),
    "where": lambda T, v, x: T.where(v > 0, v, x * 2),
    "argmax": lambda T, v, x: v.argmax() * v,
    "sortidx": lambda T, v, x: v.sort().indices.double() * x,
    "long": lambda T, v, x: v.long().double() + v,
    "sign": lambda T, v, x: v.sign() * x,
    "round": lambda T, v, x: v.round() + v,
    "floor": lambda T, v, x: v.floor() * v,
    "sin": lambda T, v, x: v.sin(),
    "mulx": lambda T, v, x: v * x,
    "addx": lambda T, v, x: v + x,
    "alias_write": _alias_write,
    "reqfalse": lambda T, v, x: v.detach().requires_grad_(False) * x,
    "reqtrue": lambda T, v, x: v.detach().requires_grad_() * x,
}


def program(seed):
    rng = random.Random(seed)
    return [rng.choice(sorted(STEPS)) for _ in range(rng.randint(2, 5))]


def run_f(T, steps, x):
    v = x
    for s in steps:
        v = STEPS[s](T, v, x)
    return (v * x).sum() + x.sum() * 0.25


def eager(T, steps, x):
    xt = T.tensor(x, requires_grad=True)
    try:
        y = run_f(T, steps, xt)
        v = float(y.detach())
        y.backward()
    except (RuntimeError, NotImplementedError) as e:
        return "error", f"{type(e).__name__}: {e}", locals().get("v")
    g = xt.grad
    return "ok", v, np.zeros(3) if g is None else g.numpy().copy()


def _close(a, b):
    return np.allclose(a, b, rtol=1e-9, atol=1e-12, equal_nan=True)


def check(steps, pts):
    """'ok', 'refused' or 'eager-error', or a failure's description."""
    want = [eager(torch, steps, x) for x in pts]
    mine = [eager(tg, steps, x) for x in pts]
    for w, m in zip(want, mine):
        if w[0] != m[0] or (w[0] == "ok" and not (_close(w[1], m[1]) and _close(w[2], m[2]))):
            return f"eager tapegrad {m} != torch {w}"
    f = lambda x: run_f(tg, steps, x)  # noqa: E731
    try:
        t = tg.jit.trace(f, pts[0])
    except (RuntimeError, NotImplementedError) as e:  # (eager's error: a backward inside f)
        if want[0][0] == "error" and f"{type(e).__name__}: {e}" == want[0][1]:
            return "eager-error"
        return "refused" if "tapegrad" in str(e) or "trace" in str(e) else f"trace: {e!r}"
    b = io.BytesIO()
    t.save(b)
    b.seek(0)
    how = {"traced": t, "loaded": tg.jit.load(b)}
    for name, r in how.items():
        for x, (kind, v, g) in zip(pts, want):
            try:
                got = r.value_and_grad(x)
            except tg.DivergenceError:
                continue
            except (RuntimeError, NotImplementedError) as e:
                if kind == "error" and f"{type(e).__name__}: {e}" == v:
                    continue
                if "tapegrad" in str(e) or "replay" in str(e):
                    continue
                return f"{name} at {x}: raised {e!r}, eager {kind} {v}"
            if kind == "error":
                return f"{name} at {x}: gave {got}, eager raised {v}"
            if not (_close(got[0], v) and _close(got[1], g)):
                return f"{name} at {x}: {got}, eager {v} {g}"
        try:
            V, G = r.value_and_grad_batch(np.stack(pts), on_divergence="mask")
        except (RuntimeError, NotImplementedError) as e:
            if want[0][0] == "ok" and "tapegrad" not in str(e) and "replay" not in str(e):
                return f"{name} batch: raised {e!r}, eager answered"
            continue
        for j, (kind, v, g) in enumerate(want):
            if (r.mask is None or r.mask[j]) and (kind == "error" or not (
                    _close(V[j], v) and _close(G[j], g))):
                return f"{name} batch at {pts[j]}: {V[j]} {G[j]}, eager {kind} {v}"
    xt = tg.tensor(pts[0], requires_grad=True)
    try:
        y = tg.compile(f)(xt)
        y.backward()
    except (RuntimeError, NotImplementedError) as e:
        if want[0][0] == "error" and f"{type(e).__name__}: {e}" == want[0][1]:
            return "eager-error"
        return f"compile(f)(tensor): raised {e!r}, eager {want[0]}"
    if want[0][0] == "error":
        return f"compile(f)(tensor): gave a gradient, eager raised {want[0][1]}"
    if not (_close(float(y.detach()), want[0][1]) and _close(xt.grad.numpy(), want[0][2])):
        return "compile(f)(tensor): another answer"
    return "ok"


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--start", type=int, default=0)
    p.add_argument("--count", type=int, default=200)
    a = p.parse_args()
    warnings.simplefilter("ignore", UserWarning)  # (scatter's reduce=: deprecated)
    cases, failures = collections.Counter(), []
    for seed in range(a.start, a.start + a.count):
        steps = program(seed)
        rng = np.random.default_rng(seed)
        pts = [rng.uniform(-1.5, 1.5, 3), rng.uniform(-1.5, 1.5, 3),
               np.round(rng.uniform(-3, 3, 3)) / 2, np.zeros(3)]
        r = check(steps, pts)
        if r in ("ok", "refused", "eager-error"):
            cases[r] += 1
        else:
            cases["failure"] += 1
            failures.append((seed, steps, r[:300]))
            print(seed, steps, r[:300], flush=True)
    print(json.dumps({"cases": cases, "failures": failures}))


if __name__ == "__main__":
    main()
