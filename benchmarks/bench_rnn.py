"""One training step of word_language_model's recurrent model, small: embedding (vocab 200,
width 32), a 2-layer LSTM or GRU of 64 units over 35 steps of a batch of 20, a decoder to
the vocabulary, mean cross-entropy, backward (float64).  Groups ``lstm step`` and ``gru
step``:

- **tapegrad**: ``nn.Embedding``, ``nn.LSTM`` / ``nn.GRU``, ``nn.Linear``,
  ``nn.CrossEntropyLoss``, ``loss.backward()``: one input projection per layer, then a
  step's GEMM and one fused cell row (ops/nn.py LSTM_CELL / GRU_CELL) per time step and layer;
- **torch 2.13**: the same modules (its fused LSTM/GRU kernels), torch's state_dict
  loaded into tapegrad's modules, so both compute the same numbers.

``test_losses_agree`` checks that both losses agree to 1e-10.  Timings are only reported.

Groups ``lstm T,B,H`` / ``gru T,B,H`` time one layer alone (float32, input width = H, from
torch's weights) at the shapes of issue 20, its forward and its forward + backward (the
sum of the output and the final states), and ``lstmcell B,H`` / ``grucell B,H`` the cells
stepped in a Python loop over 50 steps (an unrolled LSTM objective).
Run it as bench_mlp.py says (single-threaded, CPU time)::

    OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 MKL_NUM_THREADS=1 \\
    python -m pytest benchmarks/bench_rnn.py --benchmark-only \\
        --benchmark-timer=time.process_time --benchmark-columns=median,iqr,rounds
"""
import numpy as np
import pytest

VOCAB, WIDTH, HIDDEN, LAYERS, STEPS, BATCH = 200, 32, 64, 2, 35, 20
KINDS = ("LSTM", "GRU")


def _model(L, kind):
    nn = L.nn
    return nn.ModuleList([nn.Embedding(VOCAB, WIDTH), getattr(nn, kind)(WIDTH, HIDDEN, LAYERS),
                          nn.Linear(HIDDEN, VOCAB)])


def _builder(lib, kind):
    """step() -> loss for ``lib`` ('tapegrad' or 'torch'), both from torch's weights."""
    torch = pytest.importorskip("torch")
    torch.manual_seed(0)
    tmodel = _model(torch, kind).double()
    rng = np.random.default_rng(0)
    tokens, target = rng.integers(0, VOCAB, (STEPS, BATCH)), rng.integers(0, VOCAB,
                                                                         STEPS * BATCH)
    if lib == "torch":
        L, model, name = torch, tmodel, f"torch {torch.__version__}"
    else:
        L = pytest.importorskip("tapegrad")
        model, name = _model(L, kind), "tapegrad"
        model.load_state_dict({k: L.tensor(v.numpy()) for k, v in tmodel.state_dict().items()})
    x, y = L.tensor(tokens), L.tensor(target)
    embed, rnn, decoder = model
    loss_fn = L.nn.CrossEntropyLoss()

    def step():
        model.zero_grad()
        out, _ = rnn(embed(x))
        loss = loss_fn(decoder(out).reshape(-1, VOCAB), y)
        loss.backward()
        return loss.item()

    return step, name


@pytest.mark.parametrize("kind", KINDS)
def test_losses_agree(kind):
    losses = [_builder(lib, kind)[0]() for lib in ("tapegrad", "torch")]
    np.testing.assert_allclose(losses[0], losses[1], rtol=1e-10)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("lib", ["tapegrad", "torch"])
def test_rnn_step(phase, lib, kind):
    step, library = _builder(lib, kind)
    step()  # warm-up: Numba's sweep, torch's allocator
    phase(step, group=f"{kind.lower()} step", library=library, phase="fwd+bwd", ops=None,
          vocab=VOCAB, hidden=HIDDEN, layers=LAYERS, steps=STEPS, batch=BATCH)


# ---- one layer, and a cell stepped in a loop, at the shapes of issue 20 ------------------
LAYER_SHAPES = ((50, 1, 32), (50, 16, 128), (20, 8, 1024))
CELL_SHAPES = ((1, 32), (16, 128))
CELL_STEPS = 50


def _layer(lib, kind, shape, cell=False):
    """(forward, forward + backward) closures for ``lib``, both libraries from torch's
    weights and inputs (float32)."""
    torch = pytest.importorskip("torch")
    torch.manual_seed(0)
    if cell:
        (B, H), T = shape, CELL_STEPS
        tmod = getattr(torch.nn, kind + "Cell")(H, H)
    else:
        T, B, H = shape
        tmod = getattr(torch.nn, kind)(H, H)
    x = np.random.default_rng(0).standard_normal((T, B, H)).astype(np.float32)
    L = torch
    mod = tmod
    if lib == "tapegrad":
        L = pytest.importorskip("tapegrad")
        mod = getattr(L.nn, kind + ("Cell" if cell else ""))(H, H, dtype=L.float32)
        mod.load_state_dict({k: L.tensor(v.numpy()) for k, v in tmod.state_dict().items()})
    xs = L.tensor(x)

    def run():
        if not cell:
            out, state = mod(xs)
            return out.sum() + sum(s.sum() for s in (state if kind == "LSTM" else (state,)))
        state = None
        total = 0
        for t in range(T):
            state = mod(xs[t], state)
            h = state[0] if kind == "LSTM" else state
            total = total + h.sum()
        return total

    def fwd():
        with L.no_grad():
            return run().item()

    def fwd_bwd():
        mod.zero_grad()
        loss = run()
        loss.backward()
        return loss.item()

    name = "tapegrad" if lib == "tapegrad" else f"torch {torch.__version__}"
    return fwd, fwd_bwd, name


@pytest.mark.parametrize("shape", LAYER_SHAPES, ids=lambda s: ",".join(map(str, s)))
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("which", ["fwd", "fwd+bwd"])
@pytest.mark.parametrize("lib", ["tapegrad", "torch"])
def test_rnn_layer(phase, lib, which, kind, shape):
    fwd, fwd_bwd, library = _layer(lib, kind, shape)
    target = fwd if which == "fwd" else fwd_bwd
    target()
    phase(target, group=f"{kind.lower()} {','.join(map(str, shape))} {which}", library=library,
          phase=which, ops=None, shape=list(shape))


@pytest.mark.parametrize("shape", CELL_SHAPES, ids=lambda s: ",".join(map(str, s)))
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("which", ["fwd", "fwd+bwd"])
@pytest.mark.parametrize("lib", ["tapegrad", "torch"])
def test_rnn_cell_loop(phase, lib, which, kind, shape):
    fwd, fwd_bwd, library = _layer(lib, kind, shape, cell=True)
    target = fwd if which == "fwd" else fwd_bwd
    target()
    phase(target, group=f"{kind.lower()}cell {','.join(map(str, shape))} x{CELL_STEPS} "
          f"{which}", library=library, phase=which, ops=None, shape=list(shape))
