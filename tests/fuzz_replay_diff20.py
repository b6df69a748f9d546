"""Differential fuzz of replay against eager, over calls that change the world between them:
random programs read state from outside (a closure's number and list, globals of every plain
kind: number, string, tuple, list, dict, None, a small NumPy array, a SimpleNamespace's and
a class's attribute, a helper function reading a global, a tensor buffer, a parameter
requiring grad, a functools.partial's array), mixed with the grad modes, detach/.data,
in-place writes through views and masks, index_put, item()/float()/int()/bool() branches,
ties of where/clamp/abs/max, integer casts, argmax/sort/topk indices, custom Functions,
checkpoint, retain_grad, inner autograd.grad, over inputs of shape (), (4,) and (2, 3)
(broadcasting, keepdim reductions).  Between calls the state is mutated at random (rebound,
written in place, an optimizer-like step under no_grad, a tensor rebound while the old one
lives on).  At each call, eager's value and gradient at a new point (half on a grid of
halves: ties) must equal, within 1e-9: the compiled single point (lowered code), a batch,
the compiled call with tensors (forward and backward), and the Traced of the first call,
which may instead raise (stale trace, DivergenceError).  Vector programs compare
jacobian, jacobian_batch, vjp_batch and jvp_batch against eager's Jacobian.  A program the
trace refuses (random draws, a write into an outside buffer, float32) is counted apart.

    PYTHONPATH=. python tests/fuzz_replay_diff20.py --start 0 --count 300

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
from tapegrad.replay import DivergenceError

warnings.simplefilter("ignore")
sys.path.insert(0, __file__.rsplit("/", 1)[0])
import fuzz_replay_diff as base  # noqa: E402 (the (4,)-shaped op templates)

GRID = np.array([-1.5, -1.0, -0.5, 0.0, 0.5, 1.0, 1.5])
SHAPES = [(), (4,), (2, 3)]

# the world f reads from outside, set up afresh per program (x's shape: S)
WORLD = '''
import types, functools
K = 1.5
K2 = 0.5
L = [1.0, -0.5]
D = {"s": 2.0, "t": -1.0}
MODE = "a"
TUP = (0.5, 2.0)
FLAG = None
CFG = types.SimpleNamespace(s=1.25, on=True)
class Cls:
    s = 0.75
ARR = np.linspace(-1.0, 1.0, max(1, int(np.prod(S)))).reshape(S)
BUF = tg.full(S, 0.5)
W = tg.full(S, 1.0, requires_grad=True)
KEEP = []
def helper(v):
    return v * K2 + L[1]
def make():
    c = [2.0]
    cl = [0.25]
    def setc(v):
        nonlocal c
        c = [v]
    def inner(v):
        return v * c[0] + cl[0]
    return setc, cl, inner
setc, CL, inner = make()
'''

# mutations between calls: (code, what it changes)
MUTATE = [
    "global K; K = K + 0.75", "L[0] = L[0] - 1.25", "L.append(3.0)", "D['s'] = -D['s']",
    "global MODE; MODE = 'b' if MODE == 'a' else 'a'", "global TUP; TUP = (TUP[1], TUP[0])",
    "global FLAG; FLAG = 1 if FLAG is None else None", "CFG.s = CFG.s * -2.0",
    "CFG.on = not CFG.on", "Cls.s = Cls.s + 1.0", "ARR.reshape(-1)[0] += 1.0",
    "global ARR; ARR = ARR * 2.0", "BUF.add_(0.25)", "BUF.data = BUF.data * -1.0",
    "BUF.copy_(tg.full(S, 3.0))", "BUF.numpy().reshape(-1)[0] = 9.0",
    "with tg.no_grad():\n    W.mul_(0.5)", "W.data.add_(1.0)",
    "global W; KEEP.append(W); W = tg.full(S, -2.0, requires_grad=True)",
    "global K2; K2 = K2 * 3.0", "setc(-1.0)", "CL[0] = CL[0] + 1.0",
    "global helper; helper = lambda v: v * 5.0",
]

# templates keeping x's shape, for any shape: {a}, {b} are variables
ANY = [
    "{a} * K + {b}", "{a} * L[0] + L[-1]", "{a} * len(L)", "{a} * D['s'] + D['t']",
    "({a} * 2.0 if MODE == 'a' else {a}.sin())", "{a} * TUP[0] - TUP[1]",
    "({a} if FLAG is None else {a} * -3.0)", "{a} * CFG.s", "({a}.exp() if CFG.on else {a})",
    "{a} * Cls.s", "{a} * tg.tensor(ARR)", "{a} + tg.from_numpy(ARR)", "{a} * BUF",
    "{a} * W", "(W * W).sum() * {a}", "helper({a})", "inner({a})", "{a} * P0()",
    "{a} * float(ARR.sum())", "{a} * float(BUF.sum())",
    "{a}.sin() * {b}", "{a} * {b}", "{a}.abs()", "{a}.clamp(-0.5, 0.5)",
    "tg.maximum({a}, {b})", "tg.where({a} > {b}, {a}, {b} * 2.0)", "{a}.relu() + {b}",
    "{a}.detach() * {b}", "{a}.data * {b}", "{a} * ({b} > 0)", "({a} * 2).long().double() * {b}",
    "({a} * 4).int().float().double() * {a}", "{a}.floor() * {b}", "{a}.sign() * {b}",
    "{a} * {b}.max()", "{a} * {b}.amax()", "{a} * {b}.sum(-1, keepdim=True) if {a}.dim() else {a} * {b}",
    "{a} * {b}.mean(-1, keepdim=True) if {a}.dim() else {a}", "{a} - {a}.max(-1, keepdim=True).values if {a}.dim() else {a}",
    "{a}.softmax(-1) if {a}.dim() else {a}", "{a} * {b}.reshape(-1)[{b}.reshape(-1).argmax()]",
    "{a} * {b}.reshape(-1).sort().values[0]", "{a} * {b}.reshape(-1).topk(1).values[0]",
    "Sq.apply({a})", "ck({a})", "{a}.unsqueeze(0).expand(2, *{a}.shape).sum(0)",
    "({a}.unsqueeze(-1) * tg.ones(3)).mean(-1)", "{a} ** 2 - {b}", "{a}.pow(3) * 0.1",
    "tg.where({a} == {b}, {a}, {b})", "{a}.clamp({b}.min(), {b}.max())",
    "({a}.float() * 2).double()", "{a} * tg.rand_like({a})",
    # broadcasting, keepdim reductions and ties over any shape
    "{a} - {a}.mean()", "{a} * {b}.amax(0, keepdim=True) if {a}.dim() else {a} * {b}",
    "{a} * {b}.amin(-1, keepdim=True) if {a}.dim() else {a}", "{a}.cumsum(-1) if {a}.dim() else {a}",
    "{a}.logsumexp(-1, keepdim=True) * {b} if {a}.dim() else {a}", "{a} * {b}.norm()",
    "{a} / ({b}.abs().sum(-1, keepdim=True) + 1.0) if {a}.dim() else {a}",
    "{a}.var(-1, keepdim=True) * {b} if {a}.numel() > 1 and {a}.dim() else {a}",
    "tg.stack([{a}, {b}]).amax(0)", "tg.stack([{a}, {b}]).max(0).values", "tg.stack([{a}, -{a}]).max(0).values",
    "{a}.abs() * {b}.sign()", "{a}.clamp(min={b})", "{a}.clamp(max=0.5) + {a}.clamp(min=-0.5)",
    "tg.maximum({a}, {a}.round())", "tg.where({a}.round() == {a}, {b}, {a})", "{a}.masked_fill({b} == {b}.max(), 0.0)",
    "{a} * ({a} == {a}.max())", "{a}.reshape(-1).sort().values.reshape({a}.shape)",
    "{a}.reshape(-1).flip(0).reshape({a}.shape) * {b}", "{b}.reshape(-1)[{a}.reshape(-1).argsort()].reshape({a}.shape)",
    "{a}.reshape(-1)[{b}.reshape(-1).topk(1).indices].sum() * {b}",
    "{a}.unsqueeze(-1).expand(*{a}.shape, 2).sum(-1)", "({a}.unsqueeze(0) * {b}.unsqueeze(-1)).sum(-1) if {a}.dim() == 1 else {a}",
    "({a}.T @ {b}).sum() * {a} if {a}.dim() == 2 else {a}", "{a}.max(-1, keepdim=True).values.expand_as({a}) if {a}.dim() else {a}",
    "tg.where({a} > 0, {a}, 0.0) + tg.where({b} < 0.5, 1.0, {b})", "{a}.heaviside({b}) * {a}", "({a} * 3).trunc() * {b}",
    "({a} * 2).round().long().clamp(-1, 1).double() * {b}", "{a}.float().double() * 0.0 + {a}",
    "{a} * x.detach().sum()", "{a} * x.data.abs().max()", "{a}.exp().log() * {b}.sigmoid()",
]
# statements: produce {o}
STMT = [
    "{o} = {a} * 1.0\nif {b}.sum().item() > K - 1.5:\n    {o} = {o} * 2.0",
    "{o} = {a} * float({b}.reshape(-1)[0])",
    "{o} = {a} * int(({b} > 0).sum())",
    "{o} = {a} * 1.0\nif bool(({b} > 0.25).any()):\n    {o} = {o}.cos()",
    "{o} = {a} * 1.0\nwhile {o}.abs().max() > 1.0:\n    {o} = {o} * 0.5",
    "with tg.no_grad():\n    {o} = {a} * {b}",
    "with tg.no_grad():\n    {o} = {a} * 2.0\n    with tg.enable_grad():\n        {o} = {o} + {b}",
    "with tg.set_grad_enabled(False):\n    {o} = {a}.exp()\n{o} = {o} * {b}",
    "with tg.inference_mode():\n    {o} = {a} * 2.0\n{o} = {o} * 1.0 + {b}",
    "{o} = {a}.detach().requires_grad_()\n{o} = {o} * {b}",
    "{o} = {a} * 1.0\n{o}.retain_grad()",
    "{o} = tg.autograd.grad(({a} * {a}).sum(), x, create_graph=True)[0] * {b}",
    "{o} = {a} * 1.0\n{o}.reshape(-1)[1:].add_({b}.reshape(-1)[:-1])",
    "{o} = {a} * 1.0\n{o}[{b} > 0] = 0.5",
    "{o} = {a} * 1.0\n{o}.masked_fill_({b} < 0, 1.0)",
    "{o} = {a} * 1.0\n{o}.reshape(-1)[{b}.reshape(-1).argmin()] += 1.0",
    "{o} = {a}.clone()\n{o}.reshape(-1).index_put_((tg.tensor([0]),), {b}.reshape(-1)[:1] * 2.0)",
    "{o} = {a} * 1.0\nwith tg.no_grad():\n    {o}.mul_(2.0)",
    "{o} = {a}.exp()\n{o}.data.clamp_(max=1.5)",
    "{o} = {a} * 1.0\n{o}.data = ({b} * 3.0).detach()",
    "{o} = {a} * 1.0\nBUF.add_(1.0)",
    "{o} = {a} * 1.0\nBUF.copy_({o}.detach())",
    "{o} = {a} * 1.0\nD['u'] = 1.0",
    "{o} = {a} * 1.0\n{o}.reshape(-1)[{b}.reshape(-1).argmax()] = {a}.reshape(-1)[0] * 3.0",
    "{o} = {a} * 1.0\n{o}[{o} == {o}.max()] *= 2.0",
    "{o} = {a}.clone()\n{o}.clamp_(min={b}.min())",
    "{o} = {a} * 1.0\nwith tg.no_grad():\n    {o}.reshape(-1)[0] = 7.0\n{o} = {o} * {b}" ,
    "{o} = {a} * 1.0\n{o}.reshape(-1).index_put_(({b}.reshape(-1).argsort()[:1],), {b}.reshape(-1)[:1], accumulate=True)",
    "{o} = {a} * 1.0\nif ({b}.sum() > 0.0) and ({a}.max() > {b}.min()):\n    {o} = {o} * {b}",
    "{o} = {a} * 1.0\nfor _ in range(int({b}.abs().sum()) % 3):\n    {o} = {o} * 0.5 + {a}",
    "{o} = {a} * max(float({b}.reshape(-1)[0]), 0.25)",
]

HEAD = '''
class Sq(tg.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return a * a
    @staticmethod
    def backward(ctx, g):
        a, = ctx.saved_tensors
        return 2.0 * a * g
def ck(v):
    return tg.utils.checkpoint.checkpoint(lambda z: z.sin() * z, v, use_reentrant=False)
P0 = functools.partial(lambda a: float(a.sum()), ARR)
'''


def gen(rng, shape, vector, n):
    names, lines = ["x"], []
    flat4 = shape == (4,)
    for i in range(n):
        o = f"v{i}"
        a, b = rng.choice(names), rng.choice(names)
        r = rng.random()
        if r < 0.3:
            lines += rng.choice(STMT).format(o=o, a=a, b=b).split("\n")
        elif flat4 and r < 0.5:  # the first fuzz's (4,) templates
            src = rng.choice(base.VEC + [s for s in base.STMT if "{o}" in s])
            if "{o}" in src:
                lines += src.format(o=o, a=a, b=b).split("\n")
            else:
                lines.append(f"{o} = " + src.format(a=a, b=b))
        else:
            lines.append(f"{o} = " + rng.choice(ANY).format(a=a, b=b))
        names.append(o)
    coef = rng.sample(range(1, 9), n)
    tail = " + ".join(f"{v} * {c}.0" for v, c in zip(names[1:], coef, strict=True))
    out = f"({tail} + x * 0.0)"
    lines.append(f"return {out}.reshape(-1)" if vector else f"return {out}.sum()")
    return "def f(x):\n" + textwrap.indent("\n".join(lines), "    ") + "\n"


def build(src, shape):
    ns = {"tg": tg, "np": np, "S": shape, "__name__": "fuzzprog"}
    exec(WORLD, ns)  # noqa: S102 (the fuzz's own generated code)
    exec(HEAD, ns)  # noqa: S102
    exec(src, ns)  # noqa: S102
    return ns


def point(rng, shape, grid):
    if grid:
        return rng.choice(GRID, shape).astype(float)
    return rng.uniform(-1.6, 1.6, shape)


def eager(f, x):
    """(value, gradient) of scalar f at x, eagerly."""
    xt = tg.tensor(x.copy(), requires_grad=True)
    y = f(xt)
    g, = tg.autograd.grad(y, xt, allow_unused=True)
    return np.asarray(y.detach().numpy(), float), (np.zeros_like(x) if g is None
                                                     else g.numpy().copy())


def eager_jac(f, x):
    xt = tg.tensor(x.copy())
    y = f(xt.clone().requires_grad_())
    J = tg.autograd.functional.jacobian(f, xt)
    return np.asarray(y.detach().numpy(), float), np.asarray(J.numpy(), float).reshape(
        y.numel(), -1)


def same(a, b, tol=1e-9):
    a, b = np.asarray(a, float), np.asarray(b, float)
    return a.shape == b.shape and np.allclose(a, b, rtol=tol, atol=tol, equal_nan=True)


def _scalar_calls(ns, c, t, pts, E, fails, step):
    f = ns["f"]
    for x, (ev, eg) in zip(pts, E, strict=True):
        try:
            v, g = c.value_and_grad(x.copy())
            if not (same(v, ev) and same(g, eg)):
                fails.append(f"step {step} compiled point {x.tolist()}: {v} {np.ravel(g)} vs "
                             f"eager {ev} {np.ravel(eg)}")
        except Exception as ex:  # noqa: BLE001 (a fuzz: every failure is reported)
            fails.append(f"step {step} compiled point raised {type(ex).__name__}: {ex}")
        if t is not None:
            try:
                v, g = t.value_and_grad(x.copy())
                if not (same(v, ev) and same(g, eg)):
                    fails.append(f"step {step} Traced point {x.tolist()}: {v} {np.ravel(g)} "
                                 f"vs eager {ev} {np.ravel(eg)}")
            except (DivergenceError, RuntimeError):
                pass  # (a stale trace or another branch: loud)
    try:
        V, G = c.value_and_grad_batch(np.stack(pts))
        for i, (ev, eg) in enumerate(E):
            if not (same(V[i], ev) and same(G[i], eg)):
                fails.append(f"step {step} compiled batch row {i} {pts[i].tolist()}: {V[i]} "
                             f"{np.ravel(G[i])} vs eager {ev} {np.ravel(eg)}")
    except Exception as ex:  # noqa: BLE001
        fails.append(f"step {step} compiled batch raised {type(ex).__name__}: {ex}")
    try:  # the compiled call with tensors: one row of the caller's graph
        xt = tg.tensor(pts[0].copy(), requires_grad=True)
        y = c(xt)
        g, = tg.autograd.grad(y, xt, allow_unused=True)
        g = np.zeros_like(pts[0]) if g is None else g.numpy()
        if not (same(y.detach().numpy(), E[0][0]) and same(g, E[0][1])):
            fails.append(f"step {step} compiled(tensor) {pts[0].tolist()}: {float(y)} "
                         f"{np.ravel(g)} vs eager {E[0][0]} {np.ravel(E[0][1])}")
    except Exception as ex:  # noqa: BLE001
        fails.append(f"step {step} compiled(tensor) raised {type(ex).__name__}: {ex}")


def _vector_calls(ns, c, pts, E, rng, fails, step):
    try:
        for x, (ev, eJ) in zip(pts, E, strict=True):
            J = np.asarray(c.jacobian(x.copy())).reshape(eJ.shape)
            if not same(J, eJ):
                fails.append(f"step {step} jacobian {x.tolist()}: {J} vs eager {eJ}")
        X = np.stack(pts)
        JB = np.asarray(c.jacobian_batch(X)).reshape(len(pts), *E[0][1].shape)
        U = rng.normal(size=(len(pts), E[0][1].shape[0]))
        T = rng.normal(size=X.shape)
        Vv, VJ = c.vjp_batch(X, v=U.reshape(len(pts), -1))
        Vj, JV = c.jvp_batch(X, v=T)
        for i, (ev, eJ) in enumerate(E):
            if not same(JB[i], eJ):
                fails.append(f"step {step} jacobian_batch row {i}: {JB[i]} vs eager {eJ}")
            if not (same(np.ravel(Vv[i]), ev) and same(np.ravel(VJ[i]), U[i] @ eJ)):
                fails.append(f"step {step} vjp_batch row {i}: {np.ravel(VJ[i])} vs "
                             f"{U[i] @ eJ}")
            if not (same(np.ravel(Vj[i]), ev) and same(np.ravel(JV[i]), eJ @ T[i].ravel())):
                fails.append(f"step {step} jvp_batch row {i}: {np.ravel(JV[i])} vs "
                             f"{eJ @ T[i].ravel()}")
    except DivergenceError:
        pass
    except Exception as ex:  # noqa: BLE001
        fails.append(f"step {step} vector call raised {type(ex).__name__}: {ex}")


def check(src, seed, shape, vector, steps=4):
    """'' when replay agreed (or refused loudly), else the failures; or an outcome word."""
    rng = np.random.default_rng(seed)
    prng = random.Random(seed)
    ns = build(src, shape)
    f = ns["f"]
    grid = bool(seed % 2)
    x0 = point(rng, shape, grid)
    ev = eager_jac if vector else eager
    try:
        e0 = ev(f, x0)
    except Exception:  # noqa: BLE001
        return "eager-error"
    if not (np.all(np.isfinite(e0[0])) and np.all(np.isfinite(e0[1]))):
        return "nonfinite"
    c = tg.compile(f)
    try:
        t = tg.trace(f, x0)
    except Exception as e:  # noqa: BLE001 (refused loudly: counted by kind)
        return f"trace-error {type(e).__name__}: {str(e)[:160]}"
    fails = []
    for step in range(steps):
        if step and prng.random() < 0.7:
            for m in prng.sample(MUTATE, prng.randint(1, 2)):
                exec(m, ns)  # noqa: S102
        pts = [point(rng, shape, grid or k % 2 == 0) for k in range(3)]
        try:
            E = [ev(f, x) for x in pts]
        except Exception:  # noqa: BLE001 (the mutated world breaks f eagerly)
            break
        if not all(np.all(np.isfinite(e[0])) and np.all(np.isfinite(e[1])) for e in E):
            break
        if vector:
            _vector_calls(ns, c, pts, E, rng, fails, step)
        else:
            _scalar_calls(ns, c, t, pts, E, fails, step)
        if fails:
            break
    return fails


def run(start, count, out=print):
    stats, failures = collections.Counter(), []
    for seed in range(start, start + count):
        prng = random.Random(seed * 7919 + 1)
        shape = prng.choice(SHAPES)
        vector = prng.random() < 0.3
        src = gen(prng, shape, vector, prng.randint(2, 5))
        try:
            r = check(src, seed, shape, vector)
        except Exception as e:  # noqa: BLE001
            r = [f"HARNESS {type(e).__name__}: {e}\n{traceback.format_exc()[-800:]}"]
        if isinstance(r, str):
            stats[r.split(" ")[0] + (" " + r.split(" ")[1].rstrip(":") if " " in r else "")] += 1
            continue
        stats["ok" if not r else "failed"] += 1
        if r:
            failures.append(f"seed {seed} shape {shape} vector {vector}:\n{src}" +
                            "\n".join(r[:3]))
            out(failures[-1])
    return stats, failures


def main(argv=None, run=run):
    """The command line: ``--start S --count N`` cases of ``run`` (fuzz_replay_api22's too)."""
    p = argparse.ArgumentParser()
    p.add_argument("--start", type=int, default=0)
    p.add_argument("--count", type=int, default=200)
    a = p.parse_args(argv)
    stats, failures = run(a.start, a.count, out=lambda s: print(s, flush=True))
    print(json.dumps({"cases": dict(stats), "failures": failures}))


if __name__ == "__main__":
    main()
