"""Differential fuzz of replay against eager around the gradient's stops and f's own state:
it extends tests/fuzz_replay_api22.py (signatures, call paths, world changes) and
tests/fuzz_replay_diff20.py (its world, templates, Traced and vector calls) with

- grad modes as decorators (``@no_grad``, ``@no_grad()``, ``@enable_grad()`` called under
  no_grad, ``@set_grad_enabled(False)``, ``@inference_mode()``), nested managers,
  ``set_grad_enabled`` read back by f (``is_grad_enabled``);
- detach / detach_ / .data, ``requires_grad_`` toggled on values f computes, a leaf f makes;
- comparisons, masks, int and bool tensors made inside f, nonzero counts, argmax / sort /
  topk indices, while loops on values, kinks and ties (clamp, abs, relu, max, min, median,
  hardtanh, leaky_relu) on a grid of halves;
- in-place ops through views (strided, transposed, unsqueezed, a slice of a clone);
- random draws (dropout, bernoulli with a Generator, a Dropout module in train / eval);
- a Module's parameters closed over, moved by optimizer steps (SGD, Adam) between calls,
  rebound to new Parameter objects, written through ``.data``;
- backward / autograd.grad inside f (with and without create_graph, on a leaf f makes),
  torch.func.grad inside f, custom Functions, hooks registered inside f (on a value and on
  the input).

Each program is compared as fuzz_replay_api22 compares (value_and_grad, the batches, the
compiled call with tensors inside an eager graph, float32, a new shape) and, for f(x), as
fuzz_replay_diff20 does (the Traced of the first call; vector programs: jacobian,
jacobian_batch, vjp_batch, jvp_batch).  Loud refusals are counted apart.

    PYTHONPATH=. python tests/fuzz_replay_api23.py --start 0 --count 300

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

warnings.simplefilter("ignore")
sys.path.insert(0, __file__.rsplit("/", 1)[0])
import fuzz_replay_api22 as api  # noqa: E402
import fuzz_replay_diff20 as base  # noqa: E402

WORLD = api.WORLD + '''
F = tg.nn.functional
class Scale(tg.nn.Module):
    def __init__(self):
        super().__init__()
        self.p = tg.nn.Parameter(tg.full(S, 0.5))
        self.q = tg.nn.Parameter(tg.tensor(1.5))
        self.drop = tg.nn.Dropout(0.5)
    def forward(self, v):
        return self.drop(v * self.p) + self.q
MOD = Scale()
MOD.eval()
OPT = tg.optim.SGD(MOD.parameters(), lr=0.25)
ADAM = tg.optim.Adam(MOD.parameters(), lr=0.5)
'''

HEAD = base.HEAD + '''
@tg.no_grad()
def ng(v):
    return v * 2.0
@tg.no_grad
def ng2(v):
    return v.sin() + 1.0
@tg.enable_grad()
def eg(v):
    return v * v
@tg.set_grad_enabled(False)
def sg(v):
    return v.exp()
@tg.inference_mode()
def im(v):
    return v * 3.0
def mode_scale(v):
    return v * (2.0 if tg.is_grad_enabled() else -1.0)
class Half(tg.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        return a * 0.5
    @staticmethod
    def backward(ctx, g):
        return g * 0.5
class Ind(tg.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        m = a > 0
        ctx.mark_non_differentiable(m)
        ctx.save_for_backward(a)
        return a.relu(), m
    @staticmethod
    def backward(ctx, g, gm):
        a, = ctx.saved_tensors
        return g * (a > 0)
'''

MUTATE = [
    "OPT.zero_grad()\n(MOD(tg.ones(S)) ** 2).sum().backward()\nOPT.step()",
    "ADAM.zero_grad()\n(MOD.p * MOD.q).sum().backward()\nADAM.step()",
    "MOD.p = tg.nn.Parameter(tg.full(S, -0.75))",
    "MOD.q = tg.nn.Parameter(tg.tensor(-2.0))",
    "MOD.p.data = MOD.p.data * -1.5",
    "with tg.no_grad():\n    MOD.q.add_(1.0)",
    "MOD.train()", "MOD.eval()",
    "MOD.p.requires_grad_(not MOD.p.requires_grad)",
    "MOD.drop.p = 0.0",
]

# expressions keeping {a}'s shape
ANY = [
    "ng({a}) * {b}", "ng2({a}) + {b}", "eg({a}) + {b}", "sg({a}) * {b}",
    "im({a}).clone() * {b}", "{a} * im({b})", "mode_scale({a})",
    "{a}.data.clone() * {b}", "{a}.detach().clone() * {b}",
    "{a} * len(({b} > 0).nonzero())", "{a} * ({b} > 0).sum().item()",
    "{a} * int({b}.reshape(-1).argmax())", "{a} * ({b} >= 0)",
    "({a} > 0).long().sum() * {b}", "(({a} > 0) & ({b} < 0.5)).double() * {a}",
    "tg.where(({a} > 0) | ({b} > 0), {a}, {b})", "({a} >= {b}).to(tg.float64) * {a}",
    "({a} * 2).round().long().remainder(2).double() * {b}", "{a} * ({b}.long() == 0)",
    "{a}.to(tg.int32).double() + {b}", "({a} > {b}).float().double() * {b}",
    "{a}.clamp(min=0.0)", "{a}.clamp(0.0, 1.0) * {b}", "{a}.relu() * {b}",
    "F.relu6({a} * 6.0)", "F.hardtanh({a})", "F.leaky_relu({a}, 0.1)",
    "tg.minimum({a}, {b})", "tg.fmax({a}, {b})", "{a}.abs() + {b}.abs()",
    "{a} * {b}.max()", "{a} * {b}.min()", "{a} * {b}.median()", "{a} * {a}.amin()",
    "{a} * {b}.reshape(-1).kthvalue(1).values",
    "{a} * {b}.reshape(-1).sort(stable=True).indices.double().sum()",
    "{a} * {b}.reshape(-1).topk(1).indices.double()[0]",
    "{a}.reshape(-1)[{b}.reshape(-1).argmin()] * {b}",
    "F.dropout({a}, 0.5, training=False)",
    "MOD({a})",
    "{a} * MOD.p", "{a} * MOD.q + MOD.p", "{a} * MOD.p.detach()",
    "tg.func.grad(lambda z: (z.sin() * z).sum())({a}) * {b}",
    "tg.autograd.grad((x ** 3).sum(), x, retain_graph=True)[0] * {b}",
    "tg.autograd.grad((x ** 3).sum(), x, create_graph=True)[0] * {b}",
]
STMT = [
    "with tg.no_grad():\n    {o} = eg({a}) * {b}\n{o} = {o} + {a}",
    "with tg.enable_grad():\n    with tg.no_grad():\n        {o} = {a} * {b}\n    {o} = {o} * {a}",
    "with tg.set_grad_enabled(False):\n    {o} = mode_scale({a})\n{o} = {o} * {b}",
    "with tg.no_grad():\n    with tg.set_grad_enabled(True):\n        {o} = {a}.sin() * {b}",
    "with tg.no_grad():\n    {o} = ng2({a})\n    {o} = {o} * mode_scale({b})",
    "{o} = {a} * 1.0\n{o}.detach_()\n{o} = {o} * {b}",
    "{o} = {a} * 2.0\n{o}.data.mul_(0.5)\n{o} = {o} * {b}",
    "{o} = {a}.detach()\n{o}.requires_grad_(True)\n{o} = {o} * {b} + {o}",
    "{o} = {a}.detach().requires_grad_()\n{o}.requires_grad_(False)\n{o} = {o} * {b}",
    "{o} = {a} * 1.0\nif {o}.requires_grad:\n    {o} = {o} * 2.0",
    "{o} = tg.zeros_like({a}, requires_grad=True)\n{o} = ({o} + 1.0) * {b}",
    "{o} = {a} * 1.0\n_n = 0\nwhile {o}.sum() > 0.5 and _n < 4:\n    {o} = {o} - 0.75\n    _n += 1",
    "{o} = {a} * 1.0\nif ({b} == {b}.max()).sum() > 1:\n    {o} = {o} * 3.0",
    "{o} = {a} * 1.0\n_v = {o}.reshape(-1)[:2]\n_v.mul_({b}.reshape(-1)[:2])",
    "{o} = {a}.clone()\n{o}.reshape(-1)[::2].relu_()\n{o} = {o} * {b}",
    "{o} = {a} * 1.0\n{o}.unsqueeze(0).sin_()",
    "{o} = {a} * 1.0\nif {o}.dim() == 2:\n    {o}.t()[1].clamp_(min=0.0)",
    "{o} = {a} + 0.0\n{o}.reshape(-1)[-1:].abs_()\n{o} = {o} * {b}",
    "{o} = {a} * 1.0\nwith tg.no_grad():\n    {o}.reshape(-1)[:1].copy_({b}.reshape(-1)[:1])",
    "_l = {a}.detach().requires_grad_()\n(_l * _l).sum().backward()\n{o} = {b} * _l.grad",
    "_l = {a}.detach().requires_grad_()\n_g, = tg.autograd.grad((_l.sin()).sum(), _l)\n{o} = {b} * _g",
    "{o} = {a} * 1.0\n{o}.retain_grad()\n{o} = {o} * {b}",
    "{o} = {a} * 1.0\nif int(({b} > 0).sum()) == 0:\n    {o} = -{o}",
    "{o} = {a} * 1.0\n_i = ({b}.reshape(-1) > 0).nonzero().reshape(-1)\n{o} = {o} + {b}.reshape(-1)[_i].sum()",
]

# what tracing refuses (random draws, Python run by backward): drawn rarely, compared still
# (the compiled call with tensors runs f eagerly)
RARE = [
    "{o} = F.dropout({a}, 0.5)", "{o} = {a} * tg.bernoulli(tg.full_like({a}, 0.5), generator=GEN)",
    "{o} = Half.apply({a})", "{o} = Ind.apply({a})[0] * {b}",
    "{o} = ({a} * {b}).sum()\n{o}.backward(retain_graph=True)\n{o} = {a} * 1.0",
    "{o} = {a} * 1.0\n{o}.register_hook(lambda g: g * 2.0)\n{o} = {o} * {b}",
    "x.register_hook(lambda g: g * 3.0)\n{o} = {a} * 1.0",
    "tg.manual_seed(5)\n{o} = F.dropout({a}, 0.5) * {b}",
    "_g2 = tg.Generator().manual_seed(7)\n{o} = {a} * tg.rand({a}.shape, generator=_g2)",
]

XY = ["with tg.no_grad():\n    y.mul_(0.5)\n{o} = {a} * y", "{o} = {a} + y.detach()\ny.data.add_(1.0)"]


def gen(rng, sig, n, vector=False):
    names, lines = ["x"], []
    for i in range(n):
        o = f"v{i}"
        a, b = rng.choice(names), rng.choice(names)
        r = rng.random()
        if r < 0.04:
            lines += rng.choice(RARE).format(o=o, a=a, b=b).split("\n")
        elif sig == "xy" and r < 0.08:  # f writes its argument y (not differentiated
            lines += rng.choice(XY).format(o=o, a=a, b=b).split("\n")  # by the caller)
        elif r < 0.35:
            lines += rng.choice(STMT).format(o=o, a=a, b=b).split("\n")
        elif r < 0.75:
            lines.append(f"{o} = " + rng.choice(ANY).format(a=a, b=b))
        elif r < 0.85:
            lines += rng.choice(api.STMT + base.STMT).format(o=o, a=a, b=b).split("\n")
        else:
            lines.append(f"{o} = " + rng.choice(api.EXTRA[sig] + base.ANY).format(a=a, b=b))
        names.append(o)
    coef = rng.sample(range(1, 9), n)
    tail = " + ".join(f"{v} * {c}.0" for v, c in zip(names[1:], coef, strict=True))
    y = " + y * 0.5" if sig == "xy" else ""
    out = f"({tail} + x * 0.0{y})"
    lines.append(f"return {out}.reshape(-1)" if vector else f"return {out}.sum()")
    return api.SIGS[sig][0] + "\n" + textwrap.indent("\n".join(lines), "    ") + "\n"


def build(src, shape):
    ns = {"tg": tg, "np": np, "S": shape, "__name__": "fuzzprog"}
    exec(WORLD, ns)  # noqa: S102 (the fuzz's own generated code)
    exec(HEAD, ns)  # noqa: S102
    exec(src, ns)  # noqa: S102
    return ns


def _mutate(ns, prng):
    for m in prng.sample(MUTATE, prng.randint(0, 2)) + prng.sample(base.MUTATE, prng.randint(
            0, 1)) + prng.sample(api.NEW_MUTATE, prng.randint(0, 1)):
        try:
            exec(m, ns)  # noqa: S102
        except RuntimeError:  # (BUF.numpy() while BUF requires grad)
            pass


def check(src, seed, sig, shape, vector, steps=4):
    rng = np.random.default_rng(seed)
    prng = random.Random(seed)
    ns = build(src, shape)
    grid = bool(seed % 2)
    try:
        api._reseed(ns)
        if vector:
            e0 = base.eager_jac(ns["f"], base.point(rng, shape, grid))
        else:
            e0 = api.eager(ns, api._args(rng, sig, shape, grid), sig)
    except Exception:  # noqa: BLE001
        return "eager-error"
    if not (api._finite(e0) if not vector else np.all(np.isfinite(e0[1]))):
        return "nonfinite"
    c = tg.compile(ns["f"], argnums=api.SIGS[sig][1])
    t = None
    if sig == "x" and not vector:
        try:
            t = tg.trace(ns["f"], base.point(rng, shape, grid))
        except Exception:  # noqa: BLE001 (refused loudly)
            t = None
    fails = []
    shapes = [shape] * (steps - 1) + [prng.choice(base.SHAPES)]
    for step in range(steps):
        if step and prng.random() < 0.8:
            _mutate(ns, prng)
        api._reseed(ns)
        try:
            if vector:
                pts = [base.point(rng, shape, grid or k % 2 == 0) for k in range(3)]
                E = [base.eager_jac(ns["f"], x) for x in pts]
            else:
                pts = [api._args(rng, sig, shapes[step], grid or k % 2 == 0) for k in range(3)]
                E = [api.eager(ns, p, sig) for p in pts]
        except Exception:  # noqa: BLE001 (the mutated world, or the new shape, breaks f)
            break
        if not all(np.all(np.isfinite(e[1])) if vector else api._finite(e) for e in E):
            break
        try:
            if vector:
                _vector(ns, c, pts, E, rng, fails, step)
            else:
                api._step(ns, c, sig, pts, E, fails, step)
                if t is not None and pts[0][0].shape == shape:
                    _traced(t, pts, E, fails, step)
        except Exception as ex:  # noqa: BLE001
            fails.append(f"step {step} HARNESS {type(ex).__name__}: {ex}")
        if fails:
            break
    if not fails and not c.traces:
        return "no-trace"
    return fails


def _vector(ns, c, pts, E, rng, fails, step):
    """fuzz_replay_diff20's vector calls, where f is traced (a refusal is loud)."""
    try:
        c.jacobian(pts[0].copy())
    except Exception as ex:  # noqa: BLE001
        if not api._refused(ex):
            fails.append(f"step {step} jacobian raised {type(ex).__name__}: {ex}")
        return
    base._vector_calls(ns, c, pts, E, rng, fails, step)


def _traced(t, pts, E, fails, step):
    """The Traced of the first call: f's answer, or loud (stale, another branch)."""
    for (x,), (ev, eg, _) in zip(pts, E, strict=True):
        try:
            v, g = t.value_and_grad(x.copy())
        except (api.DivergenceError, RuntimeError):
            continue
        if not (api.same(v, ev) and api.same(g, eg[0])):
            fails.append(f"step {step} Traced point {x.tolist()}: {v} {np.ravel(g)} vs eager "
                         f"{ev} {np.ravel(eg[0])}")


def case(seed):
    prng = random.Random(seed * 7919 + 23)
    vector = prng.random() < 0.2
    sig = "x" if vector else prng.choice(["x", "x", "kw", "s", "xy"])
    shape = prng.choice(base.SHAPES)
    return sig, shape, vector, gen(prng, sig, prng.randint(2, 5), vector)


def run(start, count, out=print):
    stats, failures = collections.Counter(), []
    for seed in range(start, start + count):
        sig, shape, vector, src = case(seed)
        try:
            r = check(src, seed, sig, shape, vector)
        except Exception as e:  # noqa: BLE001
            r = [f"HARNESS {type(e).__name__}: {e}\n{traceback.format_exc()[-800:]}"]
        if isinstance(r, str):
            stats[r] += 1
            continue
        stats["ok" if not r else "failed"] += 1
        if r:
            failures.append(f"seed {seed} sig {sig} shape {shape} vector {vector}:\n{src}" +
                            "\n".join(r[:3]))
            out(failures[-1])
    return stats, failures


if __name__ == "__main__":
    base.main(run=run)
