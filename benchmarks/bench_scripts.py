"""Eager workloads standing for real scripts (issue 20): the same code on tapegrad and on
PyTorch (only the module differs), one round = one step as a user's loop runs it.

Groups ``script <name>``, phase ``fwd+bwd``:

- ``poly fit``: PyTorch's polynomial-fit tutorial with a dynamic graph: 0-d parameters
  a, b, c, d over a 2,000-point vector x, ``y = a + b x + c x^2 + d x^3``,
  ``loss = ((y - target)**2).sum()``, backward, SGD under ``no_grad``
  (``p -= lr * p.grad``) and ``p.grad = None``;
- ``kmeans``: a k-means objective, 1,000 x 16 points (constant), k = 100 centroids
  requiring grad, squared distances by broadcasting, ``min(dim=1)`` values summed,
  backward; ``kmeans dim0``: the same distances reduced by ``min(dim=0)`` (each
  centroid's nearest point: issue 20's original shape);
- ``lstm``: an LSTM cell written with ``cat``/matmul/sigmoid/tanh, unrolled over 20
  steps (batch 8, input 32, hidden 128), loss = sum of the last hidden state, backward;
- ``mlp step float64`` / ``float32``: bench_mlp.py's MLP step (its builders, reused).

``test_poly_fit_script`` times the polynomial fit as the issue ran it: a script of
POLY_STEPS (30,000) steps in one round (30 under ``--benchmark-disable``).

Libraries: tapegrad and torch (one thread: tensors this size gain nothing from threads).
``test_scripts_agree`` checks tapegrad's loss and gradients against torch's for each
script.  Under ``--benchmark-disable`` (CI) each case runs once.
"""
import bench_mlp
import numpy as np
import pytest

POLY_N, POLY_LR, POLY_STEPS = 2000, 1e-6, 30000
KM_POINTS, KM_DIM, KM_K = 1000, 16, 100
LSTM_BATCH, LSTM_IN, LSTM_HIDDEN, LSTM_STEPS = 8, 32, 128, 20
LIBRARIES = ("tapegrad", "torch")


def _module(lib):
    mod = pytest.importorskip(lib)
    if lib == "torch":
        mod.set_num_threads(1)
    return mod


def _params(mod, arrays):
    return [mod.tensor(a, requires_grad=True) for a in arrays]


def _grads(ps):
    return [p.grad.numpy().copy() for p in ps]


def _no_mark(phase):
    """A step's phase marks, taken by benchmarks/profile_scripts.py (forward, backward; the
    rest follows); none here."""


# ---- each script's data (NumPy arrays: profile_scripts.py's hand-written steps share it) --
def poly_data():
    x = np.linspace(-np.pi, np.pi, POLY_N)
    return x, np.sin(x), [0.1, 0.2, -0.1, 0.05]


def kmeans_data():
    rng = np.random.default_rng(1)
    return rng.standard_normal((KM_POINTS, KM_DIM)), rng.standard_normal((KM_K, KM_DIM))


def lstm_data():
    """(xs, w, b): the 20 steps' inputs, the gates' weight (input + hidden, 4 hidden) and
    bias, PyTorch's LSTM init range."""
    rng = np.random.default_rng(2)
    s = 1 / np.sqrt(LSTM_HIDDEN)
    xs = [rng.standard_normal((LSTM_BATCH, LSTM_IN)) for _ in range(LSTM_STEPS)]
    return (xs, rng.uniform(-s, s, (LSTM_IN + LSTM_HIDDEN, 4 * LSTM_HIDDEN)),
            rng.uniform(-s, s, 4 * LSTM_HIDDEN))


# ---- one builder per script: (mod, mark) -> (step, readout); step() runs one round -------
def poly_fit(mod, mark=_no_mark):
    """The tutorial's loop body; readout() gives the loss and the gradients of the last
    step before its update (the parameters move every step, for both libraries alike)."""
    x_np, t_np, init = poly_data()
    x, target = mod.tensor(x_np), mod.tensor(t_np)
    ps = a, b, c, d = _params(mod, [np.float64(v) for v in init])
    last = {}

    def step():
        y = a + b * x + c * x ** 2 + d * x ** 3
        loss = ((y - target) ** 2).sum()
        mark("forward")
        loss.backward()
        mark("backward")
        last["out"] = loss.item(), _grads(ps)
        with mod.no_grad():
            for p in ps:
                p -= POLY_LR * p.grad
                p.grad = None

    def readout():
        step()
        return last["out"]

    return step, readout


def kmeans(mod, mark=_no_mark, dim=1):
    """The objective reduced by ``min(dim=dim)``: each point's nearest centroid (1), or
    each centroid's nearest point (0)."""
    pts, cen = kmeans_data()
    points = mod.tensor(pts)
    centroids = mod.tensor(cen, requires_grad=True)

    def step():
        centroids.grad = None
        d2 = ((points[:, None, :] - centroids[None, :, :]) ** 2).sum(-1)
        loss = d2.min(dim=dim).values.sum()
        mark("forward")
        loss.backward()
        mark("backward")
        return loss

    def readout():
        return step().item(), _grads([centroids])

    return step, readout


def lstm(mod, mark=_no_mark):
    xs_np, w_np, b_np = lstm_data()
    xs = [mod.tensor(x) for x in xs_np]
    ps = w, bias = _params(mod, [w_np, b_np])
    zeros = np.zeros((LSTM_BATCH, LSTM_HIDDEN))
    H = LSTM_HIDDEN

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
        return loss

    def readout():
        return step().item(), _grads(ps)

    return step, readout


def _mlp(dtype):
    def build(mod, mark=_no_mark):
        make = bench_mlp.tapegrad_step if mod.__name__ == "tapegrad" else bench_mlp.torch_step
        step = make(dtype, mark)[0]
        return step, step
    return build


def kmeans_dim0(mod, mark=_no_mark):
    return kmeans(mod, mark, dim=0)


SCRIPTS = {"poly fit": poly_fit, "kmeans": kmeans, "kmeans dim0": kmeans_dim0, "lstm": lstm,
           "mlp step float64": _mlp("float64"), "mlp step float32": _mlp("float32")}


@pytest.mark.parametrize("lib", LIBRARIES)
@pytest.mark.parametrize("script", SCRIPTS)
def test_script(phase, script, lib):
    mod = _module(lib)
    if lib == "tapegrad" and not phase.benchmark.disabled:
        # the compiled sweeps loaded now: else the first ~3 s of steps run interpreted
        # while a thread loads them from Numba's cache (tapegrad/_kernels.py)
        mod.warmup(float32=True, replay=False)
    step, _ = SCRIPTS[script](mod)
    step()  # warm-up (untimed): torch's allocator, the tape's buffers
    library = "tapegrad" if lib == "tapegrad" else f"torch {mod.__version__} (1 thread)"
    phase(step, group=f"script {script}", library=library, phase="fwd+bwd", ops=None)


@pytest.mark.parametrize("lib", LIBRARIES)
def test_poly_fit_script(phase, lib):
    """The polynomial fit as a script runs it: POLY_STEPS steps, one round."""
    mod = _module(lib)
    if lib == "tapegrad" and not phase.benchmark.disabled:
        mod.warmup(float32=True, replay=False)
    step, _ = poly_fit(mod)
    steps = 30 if phase.benchmark.disabled else POLY_STEPS

    def script():
        for _ in range(steps):
            step()

    library = "tapegrad" if lib == "tapegrad" else f"torch {mod.__version__} (1 thread)"
    phase(script, group=f"script poly fit, {steps} steps", library=library, phase="fwd+bwd",
          ops=None, min_rounds=1, max_rounds=1)


@pytest.mark.parametrize("script", SCRIPTS)
def test_scripts_agree(script):
    """tapegrad's loss and gradients equal torch's (float64: 1e-9 relative; float32 1e-4)."""
    (loss, grads), (loss_t, grads_t) = (SCRIPTS[script](_module(lib))[1]() for lib in LIBRARIES)
    rtol = 1e-4 if script.endswith("float32") else 1e-9
    assert loss == pytest.approx(loss_t, rel=rtol)
    for g, g_t in zip(grads, grads_t, strict=True):
        np.testing.assert_allclose(g, g_t, rtol=rtol, atol=rtol * np.abs(g_t).max())
