"""Differential fuzz of replay against eager: random small programs over one input of 4
elements (elementwise ops, reductions and their index paths at ties, sorts, integer and
bool values of traced tensors, in-place writes through views, grad modes, detach/.data,
requires_grad_ toggles, value-dependent Python branches, create_graph inside f), each run
eagerly and by ``tapegrad.trace`` / ``tapegrad.compile`` at new points (half of them on a
grid of halves, where ties and zeros are frequent): value and gradient by the single-point
path, the batch path, on_divergence="mask" and a compiled call with tensors.  A point
replay gives must equal eager's within 1e-9 (NumPy's libm and Numba's may differ in an
ulp), or the trace must refuse (DivergenceError, a clear RuntimeError at trace time;
counted apart as "self-check": replay disagreeing with eager at the traced point itself,
as float32 values rounded eagerly, not by replay's float64 rows, do).

    python tests/fuzz_replay_diff.py --start 0 --count 300

It prints each failing program and, last, one JSON line: cases by outcome, failures.
Run by tests/test_hostile11.py (slow).
"""
import random
import sys
import textwrap
import traceback
import warnings

import numpy as np
import tapegrad as tg
import tapegrad.nn.functional as F
from tapegrad.replay import DivergenceError
warnings.simplefilter("ignore")

GRID = np.array([-1.5, -1.0, -0.5, 0.0, 0.5, 1.0, 1.5])

class Sq(tg.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return a * a
    @staticmethod
    def backward(ctx, g):
        a, = ctx.saved_tensors
        return 2.0 * a * g

# each template: (needs, code) with {a},{b} vector vars (shape (4,)), produce a new (4,) var
VEC = [
 "{a}.sin()", "{a}.tanh()", "{a} * {b}", "{a} + {b}", "{a} - 0.5", "{a}.abs()", "{a}.relu()",
 "{a}.clamp(-0.5, 0.5)", "{a}.clamp(min=0.0)", "{a}.clamp(max=0.5)", "tg.maximum({a}, {b})", "tg.minimum({a}, {b})",
 "tg.where({a} > {b}, {a}, {b} * 2.0)", "tg.where({a} >= 0.0, {a} * {a}, -{a})",
 "{a}.detach() * {b}", "{a}.data * {b}", "{a} * ({b} > 0)", "{a} * ({b} > 0).float()",
 "{a} * ({b} > 0).long()", "{a} * ({b}.detach() > 0).sum()", "{a}.floor() * {b}", "{a}.round() + {b}",
 "{a}.sign() * {b}", "{a} * {b}.max()", "{a} * {b}.min()", "{a} + {b}.amax()", "{a} * {b}.max(0).values",
 "{a}[{b}.argmax()] * {b}", "{a}[{b}.argmin()] + {b}", "{a}.sort().values * {b}", "{a}[{b}.argsort()]",
 "{a}.sort(stable=True).values", "{a}.topk(2).values.sum() * {b}", "{a}[{b}.topk(2).indices].sum() + {b}",
 "{a}.cumsum(0)", "{a}.cumprod(0)", "{a}.cummax(0).values", "{a}.cummin(0).values", "{a}.flip(0) * {b}",
 "Sq.apply({a})", "{a}.masked_fill({b} > 0, 0.25)", "{a}.masked_fill({a} == {b}, 3.0)",
 "tg.where({a} == {b}, {a}, {b})", "{a}.clamp({b}.min(), {b}.max())", "{a}.clamp({b}, {b} + 1.0)",
 "F.relu6({a} * 4.0)", "F.hardtanh({a})", "F.leaky_relu({a}, 0.1)", "F.elu({a})", "F.softplus({a})",
 "F.hardsigmoid({a} * 3.0)", "F.hardswish({a} * 3.0)", "{a}.softmax(0)", "{a}.log_softmax(0)",
 "{a} ** 2", "{a}.pow(3)", "{a}.abs().sqrt()", "({a}.abs() + 1.0).log()", "{a}.exp()", "{a}.square()",
 "{a} / ({b}.abs() + 1.0)", "{a}.remainder(0.7)", "{a}.fmod(0.7)", "{a}.frac()", "{a}.trunc() + {a}",
 "{a}.nan_to_num()", "{a}.max() * {b} + {a}.min()", "{a}.median() * {b}", "{a}.kthvalue(2).values * {b}",
 "{a}.mode().values * {b}", "{a}.norm() * {b}", "{a}.var() + {b}", "{a}.std() * {b}",
 "{a}.logsumexp(0) * {b}", "{a}.prod() * {b}", "{a}.mean() * {b}", "{a}.amin() * {b}",
 "{a}.unique(sorted=True).sum() * {b}", "{a}.reshape(2, 2).max(1).values.repeat(2) * {b}",
 "{a}.reshape(2, 2).t().reshape(4) * {b}", "{a}.roll(1) + {b}", "tg.stack([{a}, {b}]).max(0).values",
 "tg.stack([{a}, {b}]).amax(0)", "tg.cat([{a}, {b}]).topk(4).values", "tg.cat([{a}, {b}]).sort().values[2:6]",
 "{a}.gather(0, {b}.argsort())", "{a}.index_select(0, ({b} > 0).nonzero().reshape(-1)).sum() + {b}",
 "{a}.heaviside({b}) * {a}", "{a}.logical_and({b}) * {a}", "({a}.bool() & ({b} > 0)) * {b}",
 "(({a} > 0).int() + ({b} > 0).int()) * {a}", "({a} * 2).long().float() * {b}",
 "{a}.clamp_min({b})", "{a}.clamp_max({b})", "F.dropout({a}, 0.5, training=False)",
 "tg.dist({a}, {b}) * {a}", "{a}.renorm(2, 0, 1.0) if False else {a}.renorm(1, 0, 0.7) * 1.0",
 "{a}.diff(prepend={b}[:1])", "tg.atan2({a}, {b})", "{a}.hypot({b})", "{a}.lerp({b}, 0.3)",
 "tg.logaddexp({a}, {b})", "{a}.xlogy({b}.abs())", "F.smooth_l1_loss({a}, {b}, reduction='none')",
 "F.huber_loss({a}, {b}, reduction='none')", "F.l1_loss({a}, {b}, reduction='none')",
 "{a}.count_nonzero() * {b}", "{a}.any() * {b}", "{a}.all() * {b}", "{a}.isclose({b}) * {a}",
 "tg.bucketize({a}.detach(), tg.tensor([-0.5, 0.5])) * {b}", "tg.searchsorted(tg.tensor([-0.5, 0.0, 0.5]), {a}.detach()) * {b}",
 "{a}.msort() * {b}",
 "{b}[{a}.reshape(2, 2).argmax(1)].repeat(2)", "{a}.reshape(2, 2).median(1).values.repeat(2) * {b}",
 "{a}.reshape(2, 2).sort(1).values.reshape(4)", "{a}.reshape(2, 2).topk(1, dim=1).values.repeat(2)",
 "F.max_pool1d({a}.reshape(1, 1, 4), 2).reshape(2).repeat(2)", "{a}.reshape(2, 2).logsumexp(1).repeat(2)",
 "({a}.reshape(2, 2) @ {b}.reshape(2, 2)).reshape(4)", "F.normalize({a}, dim=0)", "{a}.reshape(2, 2).norm(dim=1).repeat(2)",
 "F.softmax({a}.reshape(2, 2), 1).reshape(4)", "F.cosine_similarity({a}.reshape(2, 2), {b}.reshape(2, 2)).repeat(2)",
 "{a}.clamp(-0.5, 0.5).max() * {b}", "tg.where({a} > 0, {a}.abs().sqrt(), 0.0)", "{a}.reshape(2, 2).amax(1).repeat(2)",
 "{a}.reshape(2, 2).min(0).values.repeat(2)", "{a}.reshape(2, 2).max(0, keepdim=True).values.expand(2, 2).reshape(4)",
 "{a}.reshape(2, 2).cummax(1).values.reshape(4)", "{a}.reshape(2, 2).kthvalue(1, 1).values.repeat(2)",
 "{a}.nonzero().sum() * {b}", "(({a} * 10).trunc() % 3) * {b}", "{b}[(({a}.detach().abs() * 2).long()).clamp(0, 3)]",
 "{b}.gather(0, ({a} > 0).long())", "({a}.argsort() == 0).float() * {b}", "{a}.argmax() * {b}",
 "{b}[{a}.argsort(descending=True)]", "{b}[{a}.topk(2, largest=False).indices].repeat(2)",
 "{b}.index_select(0, {a}.sort().indices)", "{a}.max(0).indices * {b}", "{a}.min(0)[1] * {b}",
 "F.max_pool1d({a}.reshape(1, 1, 4), 2, return_indices=True)[1].reshape(2).repeat(2) * {b}",
 "F.adaptive_max_pool1d({a}.reshape(1, 1, 4), 1).reshape(1) * {b}", "F.avg_pool1d({a}.reshape(1, 1, 4), 2).reshape(2).repeat(2)",
 "{a}.reshape(2, 2).amin(0).repeat(2) * {b}", "tg.linalg.vector_norm({a}, ord=float('inf')) * {b}",
 "tg.linalg.vector_norm({a}, ord=1) * {b}", "{a}.norm(p=1) * {b}", "{a}.abs().max() * {b}",
 "{a}.clamp(min={b}.detach().min().item()) * 1.0",
 "tg.cat([{a}.argsort(), {b}.argsort()])[:4] * {b}", "({a}.argsort() // 2) * {b}",
 "F.one_hot({a}.argmax(), 4) * {b}", "(({a} > 0) + ({b} > 0)).double() * {a}",
 "tg.stack([{a}.argmax(), {b}.argmin()]).repeat(2) * {a}", "{a}.argsort().cumprod(0) * {b}",
 "F.max_pool1d({a}.reshape(1, 1, 4), 2, return_indices=True)[1].reshape(2).repeat(2) * {b}",
 "F.embedding({a}.argsort(), tg.eye(4))[:, 1] * {b}", "{a}.frexp()[1] * {b}", "{a}.sgn() * {b}", "{a}.copysign({b})", "{a}.fmax({b})", "{a}.fmin({b})",
 # integer and bool tensor arguments made by rows with no guard of their own (comparisons,
 # their casts and sums): only the op's read of them (tensor.host_values) can guard them
 "{a}.reshape(2, 2).take_along_dim(({b}.reshape(2, 2) > 0).long(), 1).reshape(4)",
 "tg.repeat_interleave(({b} > 0).long() + 1)[:4].double() * {a}", "{a}.quantile(({b}[0] > 0).double() * 0.5 + 0.25) * {b}",
 "{a}.index_select(0, ({b} > 0).long() * 3)", "{a}.gather(0, ({b} > 0).long() + ({b} > 1).long())",
 "tg.zeros(4).scatter(0, ({b} > 0).long() * 3, {a})", "{a}.take(({b} > 0).long() * 2)", "{a}[({b} > 0).long() * 3]",
 "{a}.masked_select({b} > 0).sum() * {b}", "tg.bincount(({b} > 0).long() * 3, minlength=4).double() * {a}",
 "(({b} > 0).long() % 3).double() * {a}", "(({b} > 0).long() // 2 + ({b} > 1).long()).double() * {a}",
 "{a}.narrow(0, int(({b} > 0).sum()) % 3, 2).repeat(2)", "{a}[:({b} > 0).sum() + 1].sum() * {b}",
 "{b}[{a}.kthvalue(2).indices] * {a}", "{b}[{a}.mode().indices] * {a}", "tg.searchsorted(tg.tensor([-0.5, 0.0, 0.5]), {b}) * {a}",
 "({b} > 0).long().unique(return_counts=True)[1].sum() * {a}", "{a}.repeat_interleave(({b} > 0).long() + 1)[:4]",
 "tg.where({b} > 0)[0].sum() * {a}", "{a}.index_put((({b} > 0).long() * 3,), {b})", "{a}.masked_fill({b} > 0, 0.5) * {b}",
 "F.one_hot(({b} > 0).long() * 3, 4).double()[0] * {a}", "(({b} > 0).long().bitwise_and(({a} > 0).long())).double() * {a}",
 "{a}.index_add(0, ({b} > 0).long() * 3, {b})", "{a}.heaviside(({b} > 0).double()) * {a}",
]
# statements: may use a, b, produce {o}
STMT = [
 "{o} = tg.autograd.grad(({a} * {a}).sum(), x, create_graph=True)[0] * {b}",
 "{o} = tg.autograd.grad(({a}.sin() * {b}).sum(), x, create_graph=True, retain_graph=True)[0]",
 "{o} = {a} * 1.0\n{o}.retain_grad()",
 "with tg.enable_grad():\n    {o} = {a} * {b}",
 "{o} = {a}.detach()\n{o}.requires_grad = True\n{o} = {o} * {b}",
 "{o} = {a}.new_zeros(4)\n{o}[1:] = {b}[:3]",
 "{o} = {a}.clone()\n{o}.copy_({b})",
 "{o} = tg.empty(4)\n{o}.copy_({a})",
 "{o} = {a} * 1.0\n{o}.unsqueeze(0)[0, 2] = 5.0",
 "{o} = {a} * 1.0\n{o}.reshape(2, 2)[:, 0].zero_()",
 "{o} = {a} * 1.0\n{o}.flip(0).add_(1.0)",
 "{o} = ({a} > 0).float()\n{o}.mul_({b})",
 "{o} = {b} * {a}.sum().item()",
 "{o} = {b} * (1.0 if {a}.max().item() > 0.5 else -1.0)",
 "{o} = {b} * len({a}[{a} > 0])",
 "{o} = {b} * {a}[{a} > 0].numel()",
 "{o} = {a} * 1.0\n{o}[{o} > 0.5] *= 2.0",
 "{o} = {a} * 1.0\n{o}[{b}.argmin()] += 1.0",
 "{o} = {a} * 1.0\n{o}[[0, 0, 1]] = {b}[:3]",
 "{o} = {a} * 1.0\n{o}[{b}.argsort()[:2]] = {a}[:2]",
 "{o} = {a} * 1.0\n{o}.clamp_({b}.min(), {b}.max())",
 "{o} = {a} * 1.0\n{o}.masked_scatter_({b} > 0, {a}.flip(0))",
 "{o} = {a} * 1.0\n{o}.where({b} > 0, {b})",
 "{o} = {a} * 1.0\ny_ = {o}.view(2, 2)\ny_.mul_({b}.view(2, 2))",
 "{o} = {a} * 1.0\nwith tg.no_grad():\n    {o}.mul_(2.0)",
 "{o} = {a} * 1.0\nwith tg.no_grad():\n    {o}[0] = 7.0",
 "{o} = {a} * 1.0\nwith tg.no_grad():\n    {o}.copy_({b})",
 "{o} = {a}.sin()\nwith tg.no_grad():\n    {o}.clamp_(-0.5, 0.5)",
 "{o} = {a}.exp()\n{o}.data.clamp_(max=1.5)",

 "{o} = {a} * 1.0\n{o}.add_({b})",
 "{o} = {a} * 1.0\n{o}.mul_({b})",
 "{o} = {a} + 0.0\n{o}.clamp_(-0.5, 0.5)",
 "{o} = {a} * 1.0\n{o}.relu_()",
 "{o} = {a} * 1.0\n{o}[0] = {b}[1]",
 "{o} = {a} * 1.0\n{o}[{b} > 0] = 0.0",
 "{o} = {a} * 1.0\n{o}[{b}.argmax()] = {b}.sum()",
 "{o} = {a} * 1.0\n{o}.masked_fill_({b} < 0, 1.0)",
 "{o} = {a} * 1.0\n{o}[1:3].mul_(2.0)",
 "{o} = {a} * 1.0\n{o}.view(2, 2)[0].add_({b}[:2])",
 "{o} = {a} * 1.0\n{o}.data.mul_(2.0)",
 "{o} = {a} * 1.0\n{o}.detach().add_(1.0)",
 "{o} = {a} * 1.0\n{o}.data = ({b} * 3.0).detach()",
 "with tg.no_grad():\n    {o} = {a} * {b}",
 "with tg.no_grad():\n    {o} = {a} * 2.0\n    with tg.enable_grad():\n        {o} = {o} + {b}",
 "with tg.set_grad_enabled(False):\n    {o} = {a}.exp()\n{o} = {o} * {b}",
 "with tg.inference_mode():\n    {o} = {a} * 2.0\n{o} = {o} * 1.0 + {b}",
 "{o} = {a}.detach().requires_grad_()\n{o} = {o} * {b}",
 "{o} = tg.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True) * {a}",
 "{o} = {a}.clone()\n{o}.sub_({b}.detach())",
 "{o} = {a} * 1.0\nif {b}.sum() > 0:\n    {o} = {o} * 2.0",
 "{o} = {a} * 1.0\nif {b}[0].item() > 0.2:\n    {o} = {o} + 1.0",
 "{o} = {a} * 1.0\nif bool(({b} > 0).any()):\n    {o} = {o}.sin()",
 "{o} = {a} * float({b}.sum())",
 "{o} = {a} * int(({b} > 0).sum())",
 "{o} = {a}[:int(({b} > 0).sum()) + 1].sum() * {b}",
 "{o} = {a} * ({b}.max() == {b}[0])",
 "{o} = {a} * max({b}[0], {b}[1])",
 "{o} = {a} * 1.0\nfor _ in range(int({b}.abs().sum()) % 3):\n    {o} = {o} * 0.5 + {a}",
 "{o} = {a} * 1.0\nwhile {o}.abs().max() > 1.0:\n    {o} = {o} * 0.5",
 "{o} = {a}.tolist()\n{o} = {b} * sum({o})",
 "{o} = {a} * {b}[{b}.argmax().item()]",
 "{o} = {a} * 1.0\n{o}.index_put_(({b}.argsort()[:2],), {a}[:2] * 2.0)",
 "{o} = {a} * 1.0\n{o}.index_put_((tg.tensor([0, 0]),), {b}[:2], accumulate=True)",
 "{o} = {a} * 1.0\n{o}.scatter_(0, {b}.argsort(), {b})",
 "{o} = tg.zeros(4).scatter_add(0, ({a} > 0).long(), {b})",
 "{o} = tg.zeros(4).index_add(0, {b}.argsort(), {a})",
 "{o} = {a}.new_tensor({b}.detach().numpy()) * {a}",
 "{o} = {a} * tg.from_numpy({b}.detach().numpy().copy())",
 "{o} = tg.tensor({b}.detach().numpy()) * {a}",
 "{o} = tg.as_tensor({b}) * {a}",
 "{o} = {a}.clone().detach() * {b}",
 "{o} = {a}.requires_grad_(False) if not {a}.requires_grad else {a} * 1.0",
 # an op's error on traced values, caught: a branch the read's guard must cover
 "try:\n    {o} = {a}.index_select(0, ({b} > 0).sum().reshape(1)) * {b}\nexcept (IndexError, RuntimeError):\n    {o} = {a} * 3.0",
 "try:\n    {o} = {a}.gather(0, ({b} > 0).long() * 4)\nexcept (IndexError, RuntimeError):\n    {o} = {a} * 2.0",
 "try:\n    {o} = {a} * tg.bincount(({b} > 0).long() - ({b} < -1).long()).double().sum()\nexcept RuntimeError:\n    {o} = {a} * 0.5",
 "{o} = {a} * 1.0\ntry:\n    {o}[({b} > 0).long() * 4] = 0.0\nexcept (IndexError, RuntimeError):\n    {o} = {o} * 2.0",
]

def gen(rng, n=5):
    names = ["x"]
    lines = []
    for i in range(n):
        o = f"v{i}"
        a, b = rng.choice(names), rng.choice(names)
        if rng.random() < 0.45:
            s = rng.choice(STMT).format(o=o, a=a, b=b)
            lines += s.split("\n")
        else:
            lines.append(f"{o} = " + rng.choice(VEC).format(a=a, b=b))
        names.append(o)
    tail = " + ".join(f"({v} * {c}).sum()" for v, c in zip(names[1:], rng.sample(range(1, 9), n)))
    lines.append(f"return {tail} + (x * 0.0).sum()")
    return "def f(x):\n" + textwrap.indent("\n".join(lines), "    ") + "\n"

def build(src):
    ns = {"tg": tg, "F": F, "Sq": Sq, "np": np}
    exec(src, ns)
    return ns["f"]

def eager(f, x):
    xt = tg.tensor(x.copy(), requires_grad=True)
    y = f(xt)
    y.backward()
    return float(y.detach().numpy()), (np.zeros_like(x) if xt.grad is None else xt.grad.numpy().copy())

def same(a, b, tol):
    a, b = np.asarray(a, float), np.asarray(b, float)
    if tol == 0:
        return a.shape == b.shape and np.array_equal(a, b, equal_nan=True)
    return a.shape == b.shape and np.allclose(a, b, rtol=tol, atol=tol, equal_nan=True)

def point(rng, grid):
    if grid:
        return rng.choice(GRID, 4).astype(float)
    return rng.uniform(-1.6, 1.6, 4)

def check(src, seed, tol=1e-9, npts=4):
    rng = np.random.default_rng(seed)
    f = build(src)
    grid = bool(seed % 2)
    x0 = point(rng, grid)
    try:
        e0 = eager(f, x0)
    except Exception as e:
        return "eager-error"
    if not np.isfinite(e0[0]) or not np.all(np.isfinite(e0[1])):
        return "nonfinite"
    fails = []
    try:
        t = tg.trace(f, x0)
    except Exception as e:
        return f"trace-error {type(e).__name__}: {str(e)[:300]}"
    c = tg.compile(f)
    try:
        c.value_and_grad(x0)
    except Exception as e:
        fails.append(f"compile at x0 raised {type(e).__name__}: {e}")
        return fails
    pts = [point(rng, grid or k % 2 == 0) for k in range(npts)] + [x0]
    E = []
    for x in pts:
        ee = eager(f, x)
        E.append(ee)
        try:
            v, g = t.value_and_grad(x.copy())
            if not (same(v, ee[0], tol) and same(g, ee[1], tol)):
                fails.append(f"Traced.value_and_grad at {x.tolist()}: {v} {g.tolist()} vs eager {ee[0]} {ee[1].tolist()}")
        except DivergenceError:
            pass
        except Exception as ex:
            fails.append(f"Traced raised {type(ex).__name__}: {ex}")
        try:
            v, g = c.value_and_grad(x.copy())
            if not (same(v, ee[0], tol) and same(g, ee[1], tol)):
                fails.append(f"Compiled.value_and_grad at {x.tolist()}: {v} {g.tolist()} vs eager {ee[0]} {ee[1].tolist()}")
        except Exception as ex:
            fails.append(f"Compiled raised {type(ex).__name__}: {ex}")
    X = np.stack(pts)
    try:
        V, G = c.value_and_grad_batch(X)
        for i, ee in enumerate(E):
            if not (same(V[i], ee[0], tol) and same(G[i], ee[1], tol)):
                fails.append(f"Compiled batch row {i} at {X[i].tolist()}: {V[i]} {G[i].tolist()} vs {ee[0]} {ee[1].tolist()}")
    except Exception as ex:
        fails.append(f"Compiled batch raised {type(ex).__name__}: {ex}")
    try:
        V, G = t.value_and_grad_batch(X, on_divergence="mask")
        for i, ee in enumerate(E):
            if np.isnan(V[i]) and t.mask is not None and not t.mask[i]:
                continue
            if not (same(V[i], ee[0], tol) and same(G[i], ee[1], tol)):
                fails.append(f"Traced batch row {i} at {X[i].tolist()}: {V[i]} {G[i].tolist()} vs {ee[0]} {ee[1].tolist()}")
    except Exception as ex:
        fails.append(f"Traced batch raised {type(ex).__name__}: {ex}")
    # eager call through compiled with tensors (the _CompiledCall path)
    try:
        xt = tg.tensor(pts[0].copy(), requires_grad=True)
        y = c(xt)
        y.backward()
        gg = np.zeros(4) if xt.grad is None else xt.grad.numpy()
        if not (same(float(y.detach().numpy()), E[0][0], tol) and same(gg, E[0][1], tol)):
            fails.append(f"Compiled(tensor) at {pts[0].tolist()}: {float(y)} {gg.tolist()} vs {E[0][0]} {E[0][1].tolist()}")
    except Exception as ex:
        fails.append(f"Compiled(tensor) raised {type(ex).__name__}: {ex}")
    if fails and all("please report" in m or "computes in float32" in m for m in fails):
        # a retrace's own self-check (float32 rounded eagerly) raised: loud, not wrong
        return f"retrace-self-check {fails[0]}"
    return fails

def main(argv=None):
    import argparse
    import collections
    import json
    p = argparse.ArgumentParser()
    p.add_argument("--start", type=int, default=0)
    p.add_argument("--count", type=int, default=200)
    a = p.parse_args(argv)
    stats, failures = collections.Counter(), []
    for seed in range(a.start, a.start + a.count):
        rng = random.Random(seed)
        src = gen(rng, n=rng.randint(2, 6))
        try:
            r = check(src, seed)
        except Exception as e:
            r = [f"HARNESS {type(e).__name__}: {e}\n{traceback.format_exc()[-800:]}"]
        if isinstance(r, str):
            stats[r.split(" ")[0]] += 1
            if "please report" in r or "computes in float32" in r:  # (loud: the trace's
                # self-check, float32 rounding)
                stats["self-check"] += 1
            continue
        stats["ok" if not r else "failed"] += 1
        if r:
            failures.append(f"seed {seed}:\n{src}" + "\n".join(r[:4]))
            print(failures[-1], flush=True)
    print(json.dumps({"cases": dict(stats), "failures": failures}))


if __name__ == "__main__":
    main()
