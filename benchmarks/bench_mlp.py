"""One training step of a 2-layer MLP: forward and backward, gradients of all four parameters.

Batch 256 x 100, hidden 256, tanh, 10 classes, mean cross-entropy against class indices;
weights in PyTorch's (out, in) layout.  Groups ``mlp step float64`` and ``mlp step float32``:

- **tapegrad**: ``F.cross_entropy(F.linear(F.linear(x, w1, b1).tanh(), w2, b2), y)`` and
  ``loss.backward()``, the way a PyTorch user writes it;
- **numpy (hand-written)**: the same forward and its backward written out by hand (the
  gradient of softmax cross-entropy is ``(softmax - onehot) / N``): the floor tapegrad is
  measured against, on the same BLAS;
- **torch 2.13**: the same code as tapegrad's, ``torch.get_num_threads()`` threads;
- **jax**: ``jax.jit(jax.value_and_grad(loss, argnums=(0, 1, 2, 3)))``, compiled before
  timing (x64 enabled for the float64 group), ``block_until_ready`` inside the round.

``test_gradients_agree`` asserts that every library's loss and four gradients equal the
hand-written NumPy ones (1e-10 relative in float64, 1e-4 in float32).  Timings are only
reported.

On the shared 2-core reference machine, run it single-threaded and time CPU, not wall
clock: with the default thread pools (OpenBLAS, torch's OpenMP, XLA's Eigen) and the load
average above the core count, rounds are dominated by oversubscribed BLAS threads (torch
measured 240 ms, NumPy 29 ms for a 1 ms step; bench_blas_threads.py and
profile_blas_threads.py take the step with default threads)::

    OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 MKL_NUM_THREADS=1 \
    XLA_FLAGS="--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1" \
    python -m pytest benchmarks/bench_mlp.py --benchmark-only \
        --benchmark-timer=time.process_time --benchmark-columns=median,iqr,rounds \
        --benchmark-sort=name

Measured that way at b94ffdd (medians of three runs, per-run ratios to NumPy; load average
0.5-0.7; NumPy 2.4 / OpenBLAS 0.3.31, torch 2.13, jax 0.10; benchmarks/README.md has the
table):

    float64: numpy 0.94 ms, jax 1.12 ms, torch 1.44 ms, tapegrad 1.05 ms (1.11-1.15x numpy)
    float32: numpy 0.46 ms, jax 0.71 ms, torch 0.77 ms, tapegrad 0.59 ms (1.26-1.28x numpy)

What got it there (issue 3):

- ``F.linear`` of a 2-D input is one row (ops/linalg.py LINEAR / ADDMM): ``x @ W.T + b``
  into one array and a reverse rule making NumPy's BLAS calls, which write an adjoint
  reached first straight into its span; ``log_softmax`` and ``nll_loss`` are one row
  each, so ``cross_entropy`` records two rows, as PyTorch's.
- A float32 graph is recorded and swept in float32 (tape.py): float32 BLAS in the
  backward and half the bytes copied (float32 step 0.90 -> 0.69 ms).
- Values no rule reads are not copied into the tape (Tape.push_array ``keep=False``):
  here W1 (x needs no gradient) and the first linear output (tanh reads its own output).
- float64 ``tanh`` by a vectorised kernel of tapegrad's own (tapegrad/_eager.py, issue
  20): NumPy's float64 tanh is libm's, one element at a time, ~40% of the float64 step;
  the hand-written NumPy step still pays it, so tapegrad's float64 step is now below it.
- Per-op overhead: NumPy's error state set from a prebuilt object, one memcpy per
  recorded value, no promotion machinery for same-dtype operands; each thread keeps its
  last value arena and adjoint buffer; the sweep zeroes each slot's adjoints when it first
  reaches it, in cache, instead of the whole buffer first.
- The compiled sweep (mlp37): tanh's rule in the arena's dtype (no float64 temporaries in a
  float32 graph) and writing a first-reached input's adjoints (no zeroing pass); gW1's
  product (256, 256)^T @ (256, 100) in column blocks of OpenBLAS's small-matrix size
  (ops/linalg.py _sum_dot).  Sweep rows, float32: tanh 23.4 -> 13.7 us, first linear
  159 -> 132 us, the sweep 219 -> 199 us (float64 388 -> 356 us); the float32 step 0.93x
  (benchmarks/ab_paired.py, 40 rounds of 20, load ~13).

What remains above NumPy (float32, per call inside the step, load ~2, NumPy's piece in
brackets): first F.linear 180 us [155] (a new tape, copying x), tanh 38 [24] (copying its
output, which its rule reads), second F.linear 47 [30], cross_entropy 53 [31], backward
265 [~207]: compiled sweep 224 (Numba's BLAS, SciPy's OpenBLAS 0.3.30, takes ~14 us
longer than NumPy's for gW1 = gz^T x), Python around it ~40.  PyTorch's step is ~8 calls
into fused C++ kernels on a caching allocator; JAX compiles the whole step into one XLA
program that fuses the elementwise work.  tapegrad takes 0.94x JAX's time and 0.73x
PyTorch's in float64, 0.83x and 0.77x in float32.
"""
import resource

import numpy as np
import pytest

N, D_IN, HIDDEN, CLASSES = 256, 100, 256, 10
DTYPES = ("float64", "float32")
LIBRARIES = ("tapegrad", "numpy", "torch", "jax")


def _data(dtype):
    rng = np.random.default_rng(0)
    x = rng.standard_normal((N, D_IN)).astype(dtype)
    y = rng.integers(0, CLASSES, N)
    b1_ = 1 / np.sqrt(D_IN)
    b2_ = 1 / np.sqrt(HIDDEN)
    params = [rng.uniform(-b1_, b1_, (HIDDEN, D_IN)), rng.uniform(-b1_, b1_, HIDDEN),
              rng.uniform(-b2_, b2_, (CLASSES, HIDDEN)), rng.uniform(-b2_, b2_, CLASSES)]
    return x, y, [p.astype(dtype) for p in params]


def _no_mark(phase):
    """A step's phase marks, taken by benchmarks/profile_scripts.py (forward, backward; the
    rest follows); none here."""


# ---- one builder per library: returns step() -> (loss, [gw1, gb1, gw2, gb2]) -------------
def tapegrad_step(dtype, mark=_no_mark):
    tg = pytest.importorskip("tapegrad")
    F = tg.nn.functional
    x_np, y_np, params = _data(dtype)
    x, y = tg.tensor(x_np), tg.tensor(y_np)
    w1, b1, w2, b2 = ps = [tg.tensor(p, requires_grad=True) for p in params]

    def step():
        for p in ps:
            p.grad = None
        loss = F.cross_entropy(F.linear(F.linear(x, w1, b1).tanh(), w2, b2), y)
        mark("forward")
        loss.backward()
        mark("backward")
        return loss.item(), [np.asarray(p.grad) for p in ps]

    return step, "tapegrad"


def numpy_step(dtype, mark=_no_mark):
    x, y, (w1, b1, w2, b2) = _data(dtype)
    rows = np.arange(N)

    def step():
        h = np.tanh(x @ w1.T + b1)
        logits = h @ w2.T + b2
        m = logits.max(axis=1, keepdims=True)
        e = np.exp(logits - m)
        s = e.sum(axis=1, keepdims=True)
        loss = np.mean(np.log(s[:, 0]) + m[:, 0] - logits[rows, y])
        mark("forward")
        g = e / s  # d loss / d logits = (softmax - onehot) / N
        g[rows, y] -= 1
        g /= N
        gw2 = g.T @ h
        gb2 = g.sum(axis=0)
        gz = (g @ w2) * (1 - h * h)
        gw1 = gz.T @ x
        gb1 = gz.sum(axis=0)
        mark("backward")
        return float(loss), [gw1, gb1, gw2, gb2]

    return step, "numpy (hand-written)"


def torch_step(dtype, mark=_no_mark):
    torch = pytest.importorskip("torch")
    F = torch.nn.functional
    x_np, y_np, params = _data(dtype)
    x, y = torch.tensor(x_np), torch.tensor(y_np)
    w1, b1, w2, b2 = ps = [torch.tensor(p, requires_grad=True) for p in params]

    def step():
        for p in ps:
            p.grad = None
        loss = F.cross_entropy(F.linear(F.linear(x, w1, b1).tanh(), w2, b2), y)
        mark("forward")
        loss.backward()
        mark("backward")
        return loss.item(), [p.grad.numpy() for p in ps]

    return step, f"torch {torch.__version__} ({torch.get_num_threads()} threads)"


def jax_step(dtype):
    jax = pytest.importorskip("jax")
    if dtype == "float64":
        jax.config.update("jax_enable_x64", True)
    jnp = jax.numpy
    x_np, y_np, params = _data(dtype)
    x, y = jnp.asarray(x_np), jnp.asarray(y_np)
    ps = [jnp.asarray(p) for p in params]

    def loss_fn(w1, b1, w2, b2):
        logits = jnp.tanh(x @ w1.T + b1) @ w2.T + b2
        logp = jax.nn.log_softmax(logits, axis=1)
        return -jnp.mean(jnp.take_along_axis(logp, y[:, None], axis=1))

    vg = jax.jit(jax.value_and_grad(loss_fn, argnums=(0, 1, 2, 3)))
    loss, grads = vg(*ps)  # compile before timing
    if loss.dtype != np.dtype(dtype):
        pytest.skip(f"jax computed in {loss.dtype}, not {dtype} (x64 mode not enabled)")

    def step():
        loss, grads = vg(*ps)
        jax.block_until_ready(grads)
        return float(loss), [np.asarray(g) for g in grads]

    return step, f"jax {jax.__version__} (jit)"


BUILDERS = {"tapegrad": tapegrad_step, "numpy": numpy_step, "torch": torch_step,
            "jax": jax_step}


@pytest.fixture(scope="module", autouse=True)
def _malloc_steady_state():
    """Free one 16 MB block (never touched) before any library is timed.  glibc's malloc
    raises its mmap and trim thresholds the first time a block that large is freed; until
    then every 512 KB temporary of a step is mapped and unmapped anew and its pages fault
    in each step (the hand-written NumPy step: 1.9 ms and ~480 faults, instead of 0.93 ms
    and none).  Any program that once freed a large array runs in this state, and which
    library ran first must not decide it."""
    block = np.empty(1 << 21)
    del block


def _faults_per_step(step, n=20):
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    for _ in range(n):
        step()
    return (resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before) / n


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("lib", LIBRARIES)
def test_mlp_step(phase, lib, dtype):
    step, library = BUILDERS[lib](dtype)
    if lib == "tapegrad" and not phase.benchmark.disabled:
        # the kernels loaded now (the sweep, float64's eager tanh), as bench_scripts does:
        # else the first seconds of rounds run while a thread loads them (tapegrad/_eager.py)
        pytest.importorskip("tapegrad").warmup(float32=dtype == "float32", replay=False)
    step()  # warm-up: Numba's sweep, torch's allocator, jax's compile
    faults = _faults_per_step(step)  # minor page faults: a step should fault in no pages
    phase(step, group=f"mlp step {dtype}", library=library, phase="fwd+bwd", ops=None,
          batch=N, d_in=D_IN, hidden=HIDDEN, classes=CLASSES, dtype=dtype,
          minor_faults_per_step=faults)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("lib", [lib for lib in LIBRARIES if lib != "numpy"])
def test_gradients_agree(lib, dtype):
    loss, grads = BUILDERS[lib](dtype)[0]()
    ref_loss, ref_grads = numpy_step(dtype)[0]()
    rtol = 1e-10 if dtype == "float64" else 1e-4
    assert loss == pytest.approx(ref_loss, rel=rtol)
    for g, r in zip(grads, ref_grads, strict=True):
        assert g.dtype == np.dtype(dtype)
        np.testing.assert_allclose(g, r, rtol=rtol, atol=rtol * np.abs(r).max())
