"""Row and meta boundary mutations of saved traces, opcode by opcode: every operand field of
every row (out, in0, in1, aux) and every meta entry a row addresses set to the values that
break an index (-1, 0, the slot, meta, const and arena counts and one past them, 2^31,
2^62, -2^63), the checksum recomputed and the saved gradient dropped (so only the replay
at the traced point stands between the edit and the kernels).  A mutated trace must load
and replay (value, gradient, batch, Jacobian, listing) or raise ValueError; anything else
is a failure.  Run by tests/test_hostile10.py in a subprocess (a segfault is counted, not
fatal); run it with NUMBA_DISABLE_JIT=1 (as .ci/run does) or with NUMBA_BOUNDSCHECK=1 and
a fresh NUMBA_CACHE_DIR to turn an out-of-bounds access in a kernel into a counted
IndexError:

    python tests/fuzz_trace_rows.py --limit 40 --seed 0

It prints one JSON line: cases, refused, loaded, failures, and the opcodes met.
"""
import argparse
import io
import json
import os
import sys
import time
import warnings

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import tapegrad as tg  # noqa: E402  (this checkout's, not an installed one)
import tapegrad.nn.functional as F
from tapegrad.ops.registry import NAMES, OPS
from tapegrad.replay import validate

X6 = np.linspace(0.3, 1.4, 6)
X12 = np.linspace(-0.9, 1.2, 12)


def _unary(x):
    return (x.sin() + x.cos() + x.exp() + x.log() + x.sqrt() + x.tanh() + x.sigmoid() +
            x.abs() + x.relu() + x.reciprocal() + x.rsqrt() + x.log1p() + x.expm1() +
            x.tan() + x.sinh() + x.cosh() + (x * 0.5).asin() + (x * 0.5).acos() + x.atan() +
            x.log2() + F.logsigmoid(x) + x.ceil() + x.round(decimals=1) + (x - 0.5).relu() +
            x.erf() + x.square() + x.neg()).sum()


def _binary(x, y):
    return (x * y + x / y - x + y + (x - y) + tg.sub(x, y, alpha=2.0) + x ** 2 + x.pow(y) +
            tg.maximum(x, y) + tg.minimum(x, y) + tg.atan2(x, y) + x.hypot(y) +
            x.masked_fill(x > 1.0, y[0])).sum() + tg.mm(x.reshape(2, 3), y.reshape(3, 2)).sum()


def _consts(x):
    return ((x + 1.5) * 2.0 - 0.5 / (x + 3.0) + 2.0 ** x + x.clamp(0.4, 1.0) +
            x.clamp_min(0.5)).sum()


def _reduce(x):
    m = x.reshape(2, 3)
    return (m.sum(1) * m.mean(0).sum()).sum() + m.max(1).values.sum() + m.min(0).values.sum() \
        + x.prod() + x.reshape(3, 2).logsumexp(1).sum() + x.var() + x.std() + x.norm() \
        + m.amax(1).sum() + m.amin(1).sum() + m.min(1).values.sum()


def _scan(x):
    m = x.reshape(2, 3)
    return m.cumsum(1).sum() + m.cumprod(0).sum() + x.cummax(0).values.sum() + \
        x.logcumsumexp(0).sum()


def _matmul(x):
    W = x.reshape(3, 4)
    return (W @ x[:4]).sum() + (W @ x.reshape(4, 3)).sum() + F.linear(W, W[:2], x[:2]).sum() \
        + tg.bmm(x.reshape(1, 3, 4), x.reshape(1, 4, 3)).sum() + x[:4].dot(x[4:8]) + \
        tg.outer(x[:3], x[3:6]).sum()


def _index(x):
    m = x.reshape(2, 3)
    return x[[2, 0, 1, 5]].sum() + m[:, 1].sum() + x.index_select(0, tg.tensor([1, 3])).sum() \
        + m.gather(1, tg.tensor([[0, 2], [1, 1]])).sum() + x[x > 0.7].sum() + \
        x.take(tg.tensor([0, 4])).sum() + x.masked_fill(x > 1.0, 0.0).sum()


def _shape(x):
    m = x.reshape(2, 3)
    return tg.cat([x, x[:3]]).sum() * tg.stack([x, x]).prod(0).sum() + \
        m.t().reshape(-1)[1:4].sum() + x.reshape(1, 6).expand(3, 6).sum(0).max() + \
        m.permute(1, 0).flip(0).sum(1).max() + x.roll(2)[0] + m.repeat(2, 1)[3, 1] + \
        tg.split(x, 4)[1].sum() + m.unsqueeze(0).squeeze().diagonal().sum() + m.tril().sum() \
        + F.pad(x.reshape(1, 6), (1, 2)).sum()


def _select(x):
    return tg.where(x > 0.8, x.sin(), x.exp()).sum() + x.sort().values[0] + \
        x.topk(2).values.sum() + x[x.argmax()] + x.sign().sum() + x.floor().sum()


def _nn(x):
    m = x.reshape(2, 3)
    return (m.softmax(1) * m).sum() + m.log_softmax(1).sum() + \
        F.cross_entropy(m, tg.tensor([2, 0])) + F.nll_loss(m.log_softmax(1), tg.tensor([1, 0])) \
        + F.mse_loss(x, x.flip(0)) + F.gelu(x).sum() + F.softplus(x).sum() + F.elu(x).sum() + \
        F.silu(x).sum() + F.leaky_relu(x).sum() + \
        F.binary_cross_entropy(x.sigmoid(), x.sigmoid().detach())


def _conv(x):
    return F.conv1d(x.reshape(1, 1, 12), x[:3].reshape(1, 1, 3)).sum() + \
        F.max_pool1d(x.reshape(1, 1, 12), 2).sum() + F.avg_pool1d(x.reshape(1, 1, 12), 3).sum() \
        + F.conv2d(x.reshape(1, 1, 3, 4), x[:4].reshape(1, 1, 2, 2)).sum()


def _guard(x):
    return (x * x).sum() * 2.0 if x[0] > 0 else x.sum()


def _inplace(x):
    y = x * 1.0
    y.add_(1.0)
    y = y * y  # (not y.mul_(y): it saves y, which the writes below change, and PyTorch's
    y[2] = 0.5 * x[1]  # backward refuses that, so compile(f) and trace(f) refuse it too)
    y.clamp_(0, 3)
    y.sub_(x)
    y.div_(2.0)
    y.exp_()
    z = tg.zeros(6)
    z.copy_(y)
    z[1:3] += x[:2]
    return z.sum()


def _scatter(x):
    return tg.zeros(4).scatter_add(0, tg.tensor([0, 1, 1, 3, 2, 0]), x).pow(2).sum() + \
        tg.zeros(3).index_add(0, tg.tensor([0, 2, 1, 0, 2, 1]), x).prod() + \
        x.reshape(2, 3).scatter(1, tg.tensor([[0], [2]]), 0.5).sum()


def _stats(x):
    m = x.reshape(2, 3)
    return m.median(1).values.sum() + tg.quantile(x, 0.3) + m.std(1).sum() + \
        x.reshape(3, 2).var(0, correction=0).sum() + tg.cov(m).sum() + m.nansum() + \
        tg.trapezoid(x)


def _misc(x):
    m = x.reshape(2, 3)
    return tg.einsum("ij,jk->ik", m, x.reshape(3, 2)).sum() + tg.kron(x[:2], x[2:4]).sum() + \
        tg.linalg.cross(x[:3], x[3:6]).sum() + tg.cdist(m, m + 1.0).sum() + \
        tg.tensordot(m, x.reshape(3, 2), 1).sum() + tg.lerp(x, x.flip(0), 0.3).sum() + \
        tg.addcmul(x, x, x, value=0.5).sum()


def _detach(x):
    return x.sum() * float(x[0] > 0.5) + (x * x).mean() / x.detach().norm() + (x * x.data).sum()


def _vector(x):  # a vector output: the Jacobian paths
    return tg.cat([x.sin() * x[0], (x.reshape(2, 3) @ x[:3]), x.cumsum(0)])


def _empty(x):  # rows over empty operands: their counts (cat's outer, softmax's) move nothing
    e = x[:0]
    return tg.cat([e, e * 2]).sum() + tg.softmax(e.reshape(0, 3), dim=1).sum() + \
        tg.cat([x[:2], e, x[4:]]).sum() + tg.log_softmax(x.reshape(2, 3), dim=0).sum()


CORPUS = [(_unary, [X6]), (_binary, [X6, X6[::-1].copy()]), (_consts, [X6]),
          (_reduce, [X6]), (_scan, [X6]), (_matmul, [X12]), (_index, [X6]), (_shape, [X6]),
          (_select, [X6]), (_nn, [X6]), (_conv, [X12]), (_guard, [X6]), (_inplace, [X6]),
          (_scatter, [X6]), (_stats, [X6]), (_misc, [X6]), (_detach, [X6]), (_vector, [X6]),
          (_empty, [X6])]


def traces():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return [(f.__name__, tg.trace(f, *args, argnums=tuple(range(len(args)))), args)
                for f, args in CORPUS]


def arrays_of(t):
    b = io.BytesIO()
    t.save(b)
    b.seek(0)
    with np.load(b, allow_pickle=False) as z:
        return {k: z[k].copy() for k in z.files}


def cases(a, rng, window=16):
    """(kind, row, column or meta index, value) for every operand and meta entry."""
    rows, meta = a["rows"], a["meta"]
    nslots, nmeta, nc, nv = len(a["offs"]) - 1, len(meta), len(a["consts"]), len(a["vals0"])
    for r in range(len(rows)):
        code = int(rows[r, 0])
        for c in (1, 2, 3, 4):
            v0 = int(rows[r, c])
            for v in sorted({-2**63, -2, -1, 0, 1, v0 - 1, v0 + 1, nslots - 1, nslots, nmeta - 1,
                             nmeta, nc - 1, nc, nv, 2**31, 2**62} - {v0}):
                yield ("row", r, c, v)
        if OPS[code].aux == "meta" or OPS[code].meta_slots:
            k = int(rows[r, 4])
            for j in range(max(k, 0), min(k + window, nmeta)):
                m0 = int(meta[j])
                for v in sorted({-2**62, -1, 0, 1, m0 - 1, m0 + 1, 2 * m0, -m0, nv, nslots,
                                 2**31, 2**62, int(rng.integers(-5, nv + 5))} - {m0}):
                    yield ("meta", r, j, v)


def mutated(a, case):
    a = {k: v.copy() for k, v in a.items()}
    kind, r, c, v = case
    if kind == "row":
        a["rows"][r, c] = v
    else:
        a["meta"][c] = v
    a.pop("grad0", None)  # optional: only the replay at the traced point checks the values
    a["digest"] = validate.digest(a)
    b = io.BytesIO()
    np.savez(b, **a)
    b.seek(0)
    return b


def exercise(t, args, rng):
    """Every way a loaded trace replays: one point, a batch, masked, the Jacobian."""
    xs = [np.asarray(x) + 0.05 * rng.standard_normal(np.shape(x)) for x in args]
    if t.out_size == 1:
        t.value_and_grad(*xs)
        X = np.stack([np.concatenate([np.ravel(x) for x in xs])] * 3)
        X[1] += 0.01
        X[2] -= 0.3
        t.run(np.ascontiguousarray(X), grad=True)
        t.value_and_grad_batch(*[np.stack([x, x]) for x in xs], on_divergence="mask")
    t.jacobian(*xs)
    t.listing()


def run(limit=None, seed=0, log=None, window=16, only=None):
    rng = np.random.default_rng(seed)
    stats = {"cases": 0, "refused": 0, "loaded": 0, "failures": [], "opcodes": set()}
    for name, t, args in traces():
        if only and name not in only:
            continue
        a = arrays_of(t)
        stats["opcodes"].update(np.unique(a["rows"][:, 0]).tolist())
        todo = list(cases(a, rng, window))
        if limit and len(todo) > limit:
            todo = [todo[i] for i in sorted(rng.choice(len(todo), limit, replace=False))]
        for case in todo:
            stats["cases"] += 1
            code = int(a["rows"][case[1], 0])
            node = NAMES.get(code) or OPS[code].node(a["rows"], a["meta"], case[1])
            what = f"{name} {case} (opcode {code}, {node})"
            if log:
                with open(log, "a") as fh:
                    fh.write(what + "\n")
            try:
                u = tg.jit.load(mutated(a, case))
            except ValueError:
                stats["refused"] += 1
                continue
            except Exception as e:  # noqa: BLE001 (every other ending is a failure)
                stats["failures"].append(f"{what} load: {type(e).__name__}: {str(e)[:200]}")
                continue
            stats["loaded"] += 1
            try:
                exercise(u, args, rng)
            except IndexError as e:  # (an access out of bounds, with either setting above)
                stats["failures"].append(f"{what} replay: IndexError: {str(e)[:200]}")
            except (ValueError, RuntimeError):  # (a divergence, no reverse rule: clear)
                pass
            except Exception as e:  # noqa: BLE001
                stats["failures"].append(f"{what} replay: {type(e).__name__}: {str(e)[:200]}")
    stats["opcodes"] = sorted(stats["opcodes"])
    return stats


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--limit", type=int, help="cases per traced function (a sample)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--log")
    ap.add_argument("--window", type=int, default=16, help="meta entries per row")
    ap.add_argument("--only", nargs="*", help="traced functions by name (_unary, ...)")
    a = ap.parse_args()
    t0 = time.time()
    stats = run(a.limit, a.seed, a.log, a.window, a.only)
    stats["seconds"] = round(time.time() - t0, 1)
    print(json.dumps(stats))


if __name__ == "__main__":
    sys.exit(main())
