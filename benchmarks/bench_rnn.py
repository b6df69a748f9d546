"""One training step of word_language_model's recurrent model, small: embedding (vocab 200,
width 32), a 2-layer LSTM or GRU of 64 units over 35 steps of a batch of 20, a decoder to
the vocabulary, mean cross-entropy, backward (float64).  Groups ``lstm step`` and ``gru
step``:

- **tapegrad**: ``nn.Embedding``, ``nn.LSTM`` / ``nn.GRU``, ``nn.Linear``,
  ``nn.CrossEntropyLoss``, ``loss.backward()``: the layers are composed from primitives,
  one input projection per layer and ~10 recorded rows per time step and layer;
- **torch 2.13**: the same modules (its fused LSTM/GRU kernels), torch's state_dict
  loaded into tapegrad's modules, so both compute the same numbers.

``test_losses_agree`` checks that both losses agree to 1e-10.  Timings are only reported.
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
