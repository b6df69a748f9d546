"""Where bench_mlp's tapegrad step spends its time, op by op, beside the lines of the
hand-written NumPy step that do the same work (issue 20): the forward's four calls, the
backward's compiled sweep and the Python around it (the tape's arrays, whose flush copies
the recorded values into the arena; the leaves' gradients), medians of CPU time over
interleaved steps of both, one BLAS thread::

    OPENBLAS_NUM_THREADS=1 PYTHONPATH=. python benchmarks/profile_mlp.py [float64|float32] [steps]
"""
import sys
import time

import numpy as np

import bench_mlp as bm
import tapegrad as tg
from tapegrad import _blas
from tapegrad.autograd import engine

_T = {}
pt = time.process_time


def _note(key, seconds):
    _T.setdefault(key, []).append(seconds)


def _timed(owner, name, key):
    """Time every call of ``owner.name`` under ``key``."""
    f = getattr(owner, name)

    def g(*args, **kw):
        t0 = pt()
        r = f(*args, **kw)
        _note(key, pt() - t0)
        return r
    setattr(owner, name, g)


def main(dtype="float32", steps="300"):
    block = np.empty(1 << 21)  # glibc's malloc in its steady state (bench_mlp)
    del block
    tg.warmup(float32=dtype == "float32", replay=False)
    F = tg.nn.functional
    x_np, y_np, params = bm._data(dtype)
    x, y = tg.tensor(x_np), tg.tensor(y_np)
    ps = [tg.tensor(p, requires_grad=True) for p in params]
    w1, b1, w2, b2 = ps
    tape_type = type(tg.tensor([1.0], requires_grad=True).mul(2.0)._tok.tape)
    _timed(tape_type, "arrays", "  backward: tape arrays (flush)")
    _timed(_blas, "held", "  backward: compiled sweep")
    _timed(engine, "_targets", "  backward: _targets")
    _timed(engine, "_grad_at", "  backward: _grad_at (each)")

    def tapegrad_step():
        for p in ps:
            p.grad = None
        t = [pt()]
        z = F.linear(x, w1, b1)
        t.append(pt())
        h = z.tanh()
        t.append(pt())
        logits = F.linear(h, w2, b2)
        t.append(pt())
        logp = F.log_softmax(logits, 1)
        t.append(pt())
        loss = F.nll_loss(logp, y)
        t.append(pt())
        loss.backward()
        t.append(pt())
        loss.item(), [np.asarray(p.grad) for p in ps]
        t.append(pt())
        for k, a, b in zip(("linear 1", "tanh", "linear 2", "log_softmax", "nll_loss",
                            "backward", "item, grads"), t, t[1:]):
            _note(k, b - a)
        _note("tapegrad step", t[-1] - t[0])

    xw1, xb1, xw2, xb2 = params
    rows, n = np.arange(bm.N), bm.N

    def numpy_step():
        t = [pt()]
        h = np.tanh(x_np @ xw1.T + xb1)
        t.append(pt())
        logits = h @ xw2.T + xb2
        t.append(pt())
        m = logits.max(axis=1, keepdims=True)
        e = np.exp(logits - m)
        s = e.sum(axis=1, keepdims=True)
        float(np.mean(np.log(s[:, 0]) + m[:, 0] - logits[rows, y_np]))
        t.append(pt())
        g = e / s
        g[rows, y_np] -= 1
        g /= n
        t.append(pt())
        g.T @ h, g.sum(axis=0)
        t.append(pt())
        gz = (g @ xw2) * (1 - h * h)
        t.append(pt())
        gz.T @ x_np, gz.sum(axis=0)
        t.append(pt())
        for k, a, b in zip(("numpy: tanh(x W1^T + b1)", "numpy: h W2^T + b2",
                            "numpy: cross-entropy", "numpy: (softmax - onehot) / N",
                            "numpy: gW2, gb2", "numpy: gz", "numpy: gW1, gb1"), t, t[1:]):
            _note(k, b - a)
        _note("numpy step", t[-1] - t[0])

    for _ in range(30):
        tapegrad_step()
        numpy_step()
    _T.clear()
    for _ in range(int(steps)):
        tapegrad_step()
        numpy_step()
    print(f"mlp step {dtype}, medians of {steps} steps (CPU us)")
    for k, v in _T.items():
        print(f"{k:34s} {np.median(v) * 1e6:8.1f}")


if __name__ == "__main__":
    main(*sys.argv[1:])
