"""Where bench_scripts.py's steps spend their time: each script's step split into phases
(forward, backward, the rest: reading the loss and gradients, the update), for tapegrad,
PyTorch and the same computation written by hand in NumPy (forward and backward), taken in
turn in one process, CPU time (``time.process_time``), medians per phase::

    OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 \\
        python benchmarks/profile_scripts.py [rounds] [script...]

(rounds default 200; scripts by bench_scripts's names or their beginnings, 'mlp' or
'poly', default all).  Before timing, each
hand-written step's loss and gradients are checked against tapegrad's (float64 1e-9
relative, float32 1e-4): a hand-written backward that drifted from the script fails here.

The phases come from marks inside one step (``mark()`` takes the CPU time), so phase times
add up to the step's.  A tapegrad phase far above NumPy's at equal kernel work is Python
overhead (per-op recording, the backward's set-up); above PyTorch's but not NumPy's, it is
the kernels (BLAS, the transcendental functions).
"""
import sys
import time

import bench_mlp
import bench_scripts as B
import numpy as np

LIBS = ("tapegrad", "torch", "numpy")


# ---- each script's step, with marks between its phases -----------------------------------
# tapegrad's and torch's steps are bench_scripts.py's and bench_mlp.py's, whose builders
# take a ``mark`` and call mark("forward"), mark("backward") as each phase ends; the rest
# (reading the loss and gradients, the update) ends at the step's end.  The hand-written
# NumPy steps below mark the same phases.  A builder takes (lib, mark) and returns (step,
# readout): readout() gives the loss and gradients of one more step, for the check.

def poly_fit_numpy(mark):
    x, t, init = B.poly_data()
    p = np.array(init)
    last = {}

    def step():
        a, b, c, d = p
        x2 = x * x
        x3 = x2 * x
        r = a + b * x + c * x2 + d * x3 - t
        loss = (r * r).sum()
        mark("forward")
        g = 2.0 * r
        grads = np.array([g.sum(), (g * x).sum(), (g * x2).sum(), (g * x3).sum()])
        mark("backward")
        last["out"] = float(loss), [grads]
        p[:] -= B.POLY_LR * grads

    def readout():
        step()
        return last["out"]
    return step, readout


def kmeans_numpy(mark, dim=1):
    pts, cen = B.kmeans_data()
    rows, cols = np.arange(B.KM_POINTS), np.arange(B.KM_K)

    def step():
        diff = pts[:, None, :] - cen[None, :, :]
        d2 = (diff * diff).sum(-1)
        j = d2.argmin(dim)
        loss = (d2[rows, j] if dim == 1 else d2[j, cols]).sum()
        mark("forward")
        if dim == 1:  # d loss / d c_k = sum over the points whose nearest is k of 2 (c_k - p)
            g = 2.0 * (cen[j] - pts)
            grad = np.zeros_like(cen)
            np.add.at(grad, j, g)
        else:  # each centroid's nearest point p_j(k): 2 (c_k - p_j(k))
            grad = 2.0 * (cen - pts[j])
        mark("backward")
        return float(loss), [grad]
    return step, step


def lstm_numpy(mark):
    xs, w, b = B.lstm_data()
    H = B.LSTM_HIDDEN
    zeros = np.zeros((B.LSTM_BATCH, H))

    def sig(v):
        return 1.0 / (1.0 + np.exp(-v))

    def step():
        h, c, saved = zeros, zeros, []
        for x in xs:
            z = np.concatenate([x, h], axis=1)
            gates = z @ w + b
            i, f = sig(gates[:, :H]), sig(gates[:, H:2 * H])
            g, o = np.tanh(gates[:, 2 * H:3 * H]), sig(gates[:, 3 * H:])
            c_prev, c = c, f * c + i * g
            tc = np.tanh(c)
            h = o * tc
            saved.append((z, i, f, g, o, c_prev, tc))
        loss = h.sum()
        mark("forward")
        gw, gb = np.zeros_like(w), np.zeros_like(b)
        gh, gc = np.ones_like(h), np.zeros_like(h)
        for z, i, f, g, o, c_prev, tc in reversed(saved):
            gc = gc + gh * o * (1.0 - tc * tc)
            gz = np.concatenate([gc * g * i * (1.0 - i), gc * c_prev * f * (1.0 - f),
                                 gc * i * (1.0 - g * g), gh * tc * o * (1.0 - o)], axis=1)
            gw += z.T @ gz
            gb += gz.sum(0)
            gh = (gz @ w.T)[:, B.LSTM_IN:]
            gc = gc * f
        mark("backward")
        return float(loss), [gw, gb]
    return step, step


def _script(bench_builder, numpy_builder):
    def build(lib, mark):
        if lib == "numpy":
            return numpy_builder(mark)
        return bench_builder(B._module(lib), mark)
    return build


def _mlp_numpy(dtype):
    def build(mark):
        step = bench_mlp.numpy_step(dtype, mark)[0]
        return step, step
    return build


SCRIPTS = {"poly fit": _script(B.poly_fit, poly_fit_numpy),
           "kmeans": _script(B.kmeans, kmeans_numpy),
           "kmeans dim0": _script(B.kmeans_dim0, lambda mark: kmeans_numpy(mark, 0)),
           "lstm": _script(B.lstm, lstm_numpy),
           **{f"mlp step {dt}": _script(B.SCRIPTS[f"mlp step {dt}"], _mlp_numpy(dt))
              for dt in bench_mlp.DTYPES}}
PHASES = ("forward", "backward", "rest")


class Marks:
    """``mark(phase)`` adds the CPU time since the last mark to ``phase`` of this round."""

    def __init__(self):
        self.start()

    def start(self):
        self.round = dict.fromkeys(PHASES, 0.0)
        self.t = time.process_time()

    def __call__(self, phase):
        t = time.process_time()
        self.round[phase] += t - self.t
        self.t = t


def check(script, steps):
    """The hand-written NumPy step's loss and gradients equal tapegrad's (all gradients'
    values in one vector: the poly fit's four 0-d ones are one array by hand)."""
    (loss, grads), (loss_np, grads_np) = steps["tapegrad"][1](), steps["numpy"][1]()
    rtol = 1e-4 if script.endswith("float32") else 1e-9
    assert abs(loss - loss_np) <= rtol * abs(loss_np), (script, loss, loss_np)
    g, g_np = (np.concatenate([np.ravel(a) for a in gs]) for gs in (grads, grads_np))
    np.testing.assert_allclose(g, g_np, rtol=rtol, atol=rtol * np.abs(g_np).max(),
                               err_msg=script)


def chosen(names):
    """The scripts named: each name picks those it begins ('mlp': both dtypes; quote
    'poly fit' or say 'poly')."""
    picked = [s for s in SCRIPTS if any(s.startswith(n) for n in names)]
    unknown = [n for n in names if not any(s.startswith(n) for s in SCRIPTS)]
    if unknown:
        raise SystemExit(f"profile_scripts: no script {', '.join(map(repr, unknown))}; "
                         f"scripts: {', '.join(map(repr, SCRIPTS))}")
    return picked


def main(rounds=200, scripts=None):
    import tapegrad
    tapegrad.warmup(float32=True, replay=False)
    block = np.empty(1 << 21)  # glibc's malloc in its steady state (bench_mlp.py)
    del block
    for script in scripts or SCRIPTS:
        marks = Marks()
        steps = {lib: SCRIPTS[script](lib, marks) for lib in LIBS}
        check(script, steps)
        for lib in LIBS:  # warm-up: allocators, the tape's buffers
            for _ in range(5):
                marks.start()
                steps[lib][0]()
        times = {lib: {p: [] for p in PHASES} for lib in LIBS}
        for _ in range(rounds):
            for lib in LIBS:
                marks.start()
                steps[lib][0]()
                marks("rest")
                for p in PHASES:
                    times[lib][p].append(marks.round[p])
        med = {lib: {p: np.median(v) * 1e6 for p, v in ph.items()} for lib, ph in times.items()}
        total = {lib: sum(m.values()) for lib, m in med.items()}
        print(f"{script} (us, medians of {rounds} rounds; the total is the phases' sum)")
        for lib in LIBS:
            cols = "  ".join(f"{p} {med[lib][p]:8.1f}" for p in PHASES)
            print(f"  {lib:9s} {cols}  total {total[lib]:8.1f}  "
                  f"x torch {total[lib] / total['torch']:5.2f}  "
                  f"x numpy {total[lib] / total['numpy']:5.2f}")


if __name__ == "__main__":
    args = sys.argv[1:]
    n = int(args.pop(0)) if args and args[0].isdigit() else 200
    main(n, chosen(args) if args else None)
