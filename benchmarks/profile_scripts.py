"""Where bench_scripts.py's steps spend their time: each script's step split into phases
(forward, backward, the rest: reading the loss and gradients, the update), for tapegrad,
PyTorch and the same computation written by hand in NumPy (forward and backward), taken in
turn in one process, CPU time (``time.process_time``), medians per phase::

    OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 \\
        python benchmarks/profile_scripts.py [rounds] [script...]

(rounds default 200; scripts by bench_scripts's names, default all).  Before timing, each
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
# A builder takes (lib, mark) and returns (step, readout): step() runs one round, calling
# mark("forward"), mark("backward"), mark("rest") when each phase ends; readout() gives the
# loss and gradients of one more step, for the check.

def poly_fit(lib, mark):
    x_np = np.linspace(-np.pi, np.pi, B.POLY_N)
    t_np = np.sin(x_np)
    init = [0.1, 0.2, -0.1, 0.05]
    last = {}
    if lib == "numpy":
        p = np.array(init)

        def step():
            a, b, c, d = p
            x2 = x_np * x_np
            x3 = x2 * x_np
            r = a + b * x_np + c * x2 + d * x3 - t_np
            loss = (r * r).sum()
            mark("forward")
            g = 2.0 * r
            grads = np.array([g.sum(), (g * x_np).sum(), (g * x2).sum(), (g * x3).sum()])
            mark("backward")
            last["out"] = float(loss), list(grads)
            p[:] -= B.POLY_LR * grads
            mark("rest")
    else:
        mod = B._module(lib)
        x, target = mod.tensor(x_np), mod.tensor(t_np)
        ps = a, b, c, d = B._params(mod, [np.float64(v) for v in init])

        def step():
            y = a + b * x + c * x ** 2 + d * x ** 3
            loss = ((y - target) ** 2).sum()
            mark("forward")
            loss.backward()
            mark("backward")
            last["out"] = loss.item(), [float(g) for g in B._grads(ps)]
            with mod.no_grad():
                for q in ps:
                    q -= B.POLY_LR * q.grad
                    q.grad = None
            mark("rest")

    def readout():
        step()
        loss, grads = last["out"]
        return loss, [np.array(grads)]
    return step, readout


def kmeans(lib, mark):
    rng = np.random.default_rng(1)
    pts = rng.standard_normal((B.KM_POINTS, B.KM_DIM))
    cen = rng.standard_normal((B.KM_K, B.KM_DIM))
    rows = np.arange(B.KM_POINTS)
    if lib == "numpy":
        def step():
            diff = pts[:, None, :] - cen[None, :, :]
            d2 = (diff * diff).sum(-1)
            j = d2.argmin(1)
            loss = d2[rows, j].sum()
            mark("forward")
            # d loss / d c_k = sum over the points whose nearest is k of 2 (c_k - p)
            g = 2.0 * (cen[j] - pts)
            grad = np.zeros_like(cen)
            np.add.at(grad, j, g)
            mark("backward")
            mark("rest")
            return float(loss), [grad]
        return step, step
    mod = B._module(lib)
    points, centroids = mod.tensor(pts), mod.tensor(cen, requires_grad=True)
    last = {}

    def step():
        centroids.grad = None
        d2 = ((points[:, None, :] - centroids[None, :, :]) ** 2).sum(-1)
        loss = d2.min(dim=1).values.sum()
        mark("forward")
        loss.backward()
        mark("backward")
        last["out"] = loss.item(), B._grads([centroids])
        mark("rest")
        return last["out"]
    return step, step


def lstm(lib, mark):
    rng = np.random.default_rng(2)
    H, h4 = B.LSTM_HIDDEN, 4 * B.LSTM_HIDDEN
    s = 1 / np.sqrt(H)
    xs_np = [rng.standard_normal((B.LSTM_BATCH, B.LSTM_IN)) for _ in range(B.LSTM_STEPS)]
    w_np = rng.uniform(-s, s, (B.LSTM_IN + H, h4))
    b_np = rng.uniform(-s, s, h4)
    zeros = np.zeros((B.LSTM_BATCH, H))
    if lib == "numpy":
        def sig(v):
            return 1.0 / (1.0 + np.exp(-v))

        def step():
            h, c, saved = zeros, zeros, []
            for x in xs_np:
                z = np.concatenate([x, h], axis=1)
                gates = z @ w_np + b_np
                i, f = sig(gates[:, :H]), sig(gates[:, H:2 * H])
                g, o = np.tanh(gates[:, 2 * H:3 * H]), sig(gates[:, 3 * H:])
                c_prev, c = c, f * c + i * g
                tc = np.tanh(c)
                h = o * tc
                saved.append((z, i, f, g, o, c_prev, tc))
            loss = h.sum()
            mark("forward")
            gw, gb = np.zeros_like(w_np), np.zeros_like(b_np)
            gh, gc = np.ones_like(h), np.zeros_like(h)
            for z, i, f, g, o, c_prev, tc in reversed(saved):
                gc = gc + gh * o * (1.0 - tc * tc)
                gz = np.concatenate([gc * g * i * (1.0 - i), gc * c_prev * f * (1.0 - f),
                                     gc * i * (1.0 - g * g), gh * tc * o * (1.0 - o)], axis=1)
                gw += z.T @ gz
                gb += gz.sum(0)
                gh = (gz @ w_np.T)[:, B.LSTM_IN:]
                gc = gc * f
            mark("backward")
            mark("rest")
            return float(loss), [gw, gb]
        return step, step
    mod = B._module(lib)
    xs = [mod.tensor(x) for x in xs_np]
    ps = w, bias = B._params(mod, [w_np, b_np])

    def step():
        w.grad = bias.grad = None
        h, c = mod.tensor(zeros), mod.tensor(zeros)
        for x in xs:
            gates = mod.cat([x, h], dim=1) @ w + bias
            i = gates[:, :H].sigmoid()
            f = gates[:, H:2 * H].sigmoid()
            g = gates[:, 2 * H:3 * H].tanh()
            o = gates[:, 3 * H:].sigmoid()
            c = f * c + i * g
            h = o * c.tanh()
        loss = h.sum()
        mark("forward")
        loss.backward()
        mark("backward")
        out = loss.item(), B._grads(ps)
        mark("rest")
        return out
    return step, step


def mlp(dtype):
    def build(lib, mark):
        x, y, (w1, b1, w2, b2) = bench_mlp._data(dtype)
        if lib == "numpy":  # bench_mlp.numpy_step's, with marks
            rows, n = np.arange(bench_mlp.N), bench_mlp.N

            def step():
                h = np.tanh(x @ w1.T + b1)
                logits = h @ w2.T + b2
                m = logits.max(axis=1, keepdims=True)
                e = np.exp(logits - m)
                s = e.sum(axis=1, keepdims=True)
                loss = np.mean(np.log(s[:, 0]) + m[:, 0] - logits[rows, y])
                mark("forward")
                g = e / s
                g[rows, y] -= 1
                g /= n
                gw2, gb2 = g.T @ h, g.sum(axis=0)
                gz = (g @ w2) * (1 - h * h)
                gw1, gb1 = gz.T @ x, gz.sum(axis=0)
                mark("backward")
                mark("rest")
                return float(loss), [gw1, gb1, gw2, gb2]
            return step, step
        mod = B._module(lib)
        F = mod.nn.functional
        X, Y = mod.tensor(x), mod.tensor(y)
        ps = [mod.tensor(p, requires_grad=True) for p in (w1, b1, w2, b2)]

        def step():
            for p in ps:
                p.grad = None
            loss = F.cross_entropy(F.linear(F.linear(X, ps[0], ps[1]).tanh(), ps[2], ps[3]), Y)
            mark("forward")
            loss.backward()
            mark("backward")
            out = loss.item(), [p.grad.numpy().copy() for p in ps]
            mark("rest")
            return out
        return step, step
    return build


SCRIPTS = {"poly fit": poly_fit, "kmeans": kmeans, "lstm": lstm,
           "mlp step float64": mlp("float64"), "mlp step float32": mlp("float32")}
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
    """The hand-written NumPy step's loss and gradients equal tapegrad's."""
    (loss, grads), (loss_np, grads_np) = steps["tapegrad"][1](), steps["numpy"][1]()
    rtol = 1e-4 if script.endswith("float32") else 1e-9
    assert abs(loss - loss_np) <= rtol * abs(loss_np), (script, loss, loss_np)
    for g, g_np in zip(grads, grads_np, strict=True):
        np.testing.assert_allclose(g, g_np, rtol=rtol, atol=rtol * np.abs(g_np).max(),
                                   err_msg=script)


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
    main(n, args or None)
