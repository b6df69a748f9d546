"""Differential fuzz of replay around views, in-place ops and the gradient's stops: random
f(x) (x of shape (3, 4)) mixing views (slices, rows, t, diagonal, view, pieces of unbind /
split / chunk, detach(), .data), in-place ops on them and on their bases, no_grad /
enable_grad / set_grad_enabled blocks (and the function form), requires_grad_ toggles on
detached values.  The same source runs with T = torch and T = tapegrad:

- torch refuses f  -> eager tapegrad must refuse it too (a RuntimeError), and so must the
  compiled f (a refusal, or the same RuntimeError);
- torch runs f     -> eager tapegrad's value and gradient must be torch's, and
  ``tg.compile(f)`` at NEW points (value_and_grad, value_and_grad_batch, grad_batch, a call
  with a tensor that requires grad followed by backward) must give eager's, or refuse
  loudly (tests/fuzz_replay_api22.py ``_refused``).

    PYTHONPATH=. python tests/fuzz_replay_views25.py --start 0 --count 500

Prints each failing program and, last, one JSON line: cases by outcome, failures.
"""
import argparse
import collections
import json
import random
import sys
import textwrap
import traceback
import warnings

import numpy as np

import tapegrad as tg

warnings.simplefilter("ignore")
sys.path.insert(0, __file__.rsplit("/", 1)[0])
import fuzz_replay_api22 as api  # noqa: E402

try:
    import torch
except ImportError:  # (the torch comparison is the point: nothing to run without it)
    torch = None

# a view of {a} (made as a new name); (shape-free: each applies to any tensor of >= 1 dim,
# the generator keeps to those)
VIEW = {"{a}[1:]": 0, "{a}[0]": -1, "{a}[:, 1]": -1, "{a}.t()": 0, "{a}.diagonal()": -1,
        "{a}.view(-1)": "1", "{a}.unbind(0)[1]": -1, "{a}.split(1, 0)[0]": 0,
        "{a}.chunk(2, 0)[1]": 0, "{a}.detach()": 0, "{a}.data": 0, "{a}.unsqueeze(0)": 1,
        "{a}[::2]": 0, "{a}.reshape(-1)": "1", "{a}.expand(2, *{a}.shape)": 1,
        "{a}.split_with_sizes([1, {a}.shape[0] - 1], 0)[1]": 0, "{a}.narrow(0, 1, 1)": 0}
_TWO_D = ("{a}[:, 1]", "{a}.t()", "{a}.diagonal()")  # (a tensor of 2 dims)
# an in-place change of {a} ({b}: a 0-d operand that may require grad)
CHANGE = ["{a}.add_({b})", "{a}.mul_(1.5)", "{a}.sin_()", "{a}.mul_({b})", "{a}.zero_()",
          "{a}.clamp_(min=-0.5)", "{a}.copy_({a} * 0.5 + {b})", "{a}[0] = {b}", "{a} += {b}",
          "{a}.fill_(0.25)", "{a}.exp_()", "{a}.neg_()", "{a}[...] = {b} * 2.0"]
# the modes a change (or a view) may run under
MODES = ["{s}", "with T.no_grad():\n    {s}", "with T.enable_grad():\n    {s}",
         "with T.set_grad_enabled(False):\n    {s}",
         "with T.no_grad():\n    with T.enable_grad():\n        {s}",
         "T.set_grad_enabled(False)\n{s}\nT.set_grad_enabled(True)"]
USE = ["{o} = {a} * {b}", "{o} = ({a} * {a}).sin()", "{o} = {a}.cos() + {b}",
       "{o} = {a}.detach().requires_grad_() * {b}", "{o} = {a}.sum() * {b}",
       "{o} = {a}.clone()", "{o} = {a}.exp() * 0.5"]


def gen(rng, n):
    """f's source: n steps over the names made so far, each a view, a change or a use."""
    names, dims, lines = ["h"], {"h": 2}, ["h = x * 1.5", "s = x.sum() * 0.1"]
    for i in range(n):
        o = f"v{i}"
        a = rng.choice([m for m in names if dims[m] >= 1 and dims[m] <= 3])
        b = rng.choice(["s", "0.75", "s.detach()", f"{rng.choice(names)}.sum() * 0.1"])
        r = rng.random()
        if r < 0.4:
            v = rng.choice([t for t in VIEW if dims[a] == 2 or t not in _TWO_D])
            line = f"{o} = " + v.format(a=a)
            lines += rng.choice(MODES[:2] + MODES[3:4]).format(s=line).split("\n") \
                if rng.random() < 0.25 else [line]
            names.append(o)
            d = VIEW[v]
            dims[o] = 1 if d == "1" else dims[a] + d
        elif r < 0.8:
            c = rng.choice(CHANGE).format(a=a, b=b)
            lines += rng.choice(MODES).format(s=c).split("\n")
        else:
            lines += rng.choice(USE).format(o=o, a=a, b=b).split("\n")
            names.append(o)
            dims[o] = 0 if ".sum() *" in lines[-1] else dims[a]
        if rng.random() < 0.1:
            lines.append("T.set_grad_enabled(True)")
    tail = " + ".join(f"({m} * {k + 1}.0).sum()" for k, m in enumerate(names))
    lines.append(f"return {tail}")
    return "def f(x):\n" + textwrap.indent("\n".join(lines), "    ") + "\n"


def run_eager(T, src, x):
    """f at x in T (torch or tapegrad): (value, gradient) or the RuntimeError's text."""
    ns = {"T": T}
    exec(src, ns)  # noqa: S102 (the fuzz's own generated code)
    xt = T.tensor(x, dtype=T.float64, requires_grad=True)
    prev = T.is_grad_enabled()
    try:
        y = ns["f"](xt)
        if not y.requires_grad:
            return float(y.item()), np.zeros_like(x)
        y.backward()
        return float(y.item()), (np.zeros_like(x) if xt.grad is None else
                                 np.array(xt.grad.tolist()))
    except (RuntimeError, IndexError) as e:  # (IndexError: a piece f's shapes do not have)
        return f"{type(e).__name__}: {e}"
    finally:
        T.set_grad_enabled(prev)


def check(src, seed):
    rng = np.random.default_rng(seed)
    pts = [np.round(rng.uniform(-2, 2, (3, 4)), 3) for _ in range(4)]
    theirs = [run_eager(torch, src, p) for p in pts]
    mine = [run_eager(tg, src, p) for p in pts]
    fails = []
    for p, a, b in zip(pts, mine, theirs, strict=True):
        if isinstance(b, str) or isinstance(a, str):
            if isinstance(b, str) != isinstance(a, str):
                fails.append(f"eager-vs-torch at {p.tolist()}: tapegrad {a!r:.300}, torch "
                             f"{b!r:.300}")
        elif not (api.same(a[0], b[0]) and api.same(a[1], b[1])):
            fails.append(f"eager-vs-torch at {p.tolist()}: tapegrad {a}, torch {b}")
        if fails:
            break
    # replay is compared with eager tapegrad even where that differs from torch (reported)
    refused = isinstance(mine[0], str)
    if any(isinstance(m, str) != refused for m in mine):
        return fails or ["eager refuses at some points only"]
    ns = {"T": tg}
    exec(src, ns)  # noqa: S102
    c = tg.compile(ns["f"])
    ok = 0
    for k, p in enumerate(pts[1:]):  # (the first point traces; the others are new)
        if k == 0:
            try:
                c.value_and_grad(pts[0])
            except Exception as ex:  # noqa: BLE001
                if refused or api._refused(ex):
                    return fails or ["refused"]
                return [f"trace raised {type(ex).__name__}: {ex}"]
            if refused:
                return fails + [f"eager refuses f ({mine[0][:200]}), compile(f) ran it"]
        try:
            v, g = c.value_and_grad(p)
        except Exception as ex:  # noqa: BLE001
            if api._refused(ex):
                continue
            fails.append(f"value_and_grad at {p.tolist()} raised {type(ex).__name__}: {ex}")
            continue
        e = mine[k + 1]
        if not (api.same(v, e[0]) and api.same(g, e[1])):
            fails.append(f"value_and_grad at {p.tolist()}: {v} {np.ravel(g)} vs eager {e[0]} "
                         f"{np.ravel(e[1])}")
        ok += 1
    try:
        V, G = c.value_and_grad_batch(np.stack(pts))
        G2 = c.grad_batch(np.stack(pts))
        for i, e in enumerate(mine):
            if not (api.same(V[i], e[0]) and api.same(G[i], e[1]) and api.same(G2[i], e[1])):
                fails.append(f"batch row {i}: {V[i]} {np.ravel(G[i])} vs eager {e[0]} "
                             f"{np.ravel(e[1])}")
    except Exception as ex:  # noqa: BLE001
        if not api._refused(ex):
            fails.append(f"batch raised {type(ex).__name__}: {ex}")
    try:  # with a tensor: one row of the caller's graph
        xt = tg.tensor(pts[2], requires_grad=True)
        y = c(xt)
        y.backward()
        if not (api.same(y.item(), mine[2][0]) and api.same(xt.grad.numpy(), mine[2][1])):
            fails.append(f"compiled(tensor): {y.item()} {np.ravel(xt.grad.numpy())} vs eager "
                         f"{mine[2][0]} {np.ravel(mine[2][1])}")
    except Exception as ex:  # noqa: BLE001
        if not api._refused(ex):
            fails.append(f"compiled(tensor) raised {type(ex).__name__}: {ex}")
    return fails or ("ok" if ok else "refused")


def case(seed):
    rng = random.Random(seed * 7907 + 5)
    return gen(rng, rng.randint(3, 8))


def run(start, count, out=print):
    stats, failures = collections.Counter(), []
    for seed in range(start, start + count):
        src = case(seed)
        try:
            r = check(src, seed)
        except Exception as e:  # noqa: BLE001
            r = [f"HARNESS {type(e).__name__}: {e}\n{traceback.format_exc()[-800:]}"]
        finally:
            tg.set_grad_enabled(True)
        if isinstance(r, str) or r == ["refused"]:
            stats[r if isinstance(r, str) else "refused"] += 1
            continue
        stats["failed"] += 1
        for kind in {line.split(" ")[0] for line in r}:  # (eager-vs-torch, value_and_grad...)
            stats["failed: " + kind] += 1
        failures.append(f"seed {seed}:\n{src}" + "\n".join(r[:3]))
        out(failures[-1])
    return stats, failures


def main(argv=None):
    p = argparse.ArgumentParser()
    p.add_argument("--start", type=int, default=0)
    p.add_argument("--count", type=int, default=200)
    a = p.parse_args(argv)
    torch.set_default_dtype(torch.float64)
    stats, failures = run(a.start, a.count)
    print(json.dumps({"stats": dict(stats), "failures": len(failures)}))


if __name__ == "__main__":
    main()
