"""Recurrent layers and cells (RNN, LSTM, GRU and their cells) and nn.utils.rnn against
PyTorch: torch's state_dict loaded into tapegrad's module, then outputs, final states and the
gradients of the input, the initial states and every parameter compared in float64 (to
1e-10); state_dict keys and shapes, reprs, the start distribution, packed sequences, dropout
between layers, PyTorch's errors with nothing recorded, and a small language model trained
three steps as torch trains it."""
import numpy as np
import pytest

import tapegrad as tg

pytestmark = pytest.mark.oracle

LAYERS = {  # name: (build(nn), input shape, initial states given)
    "RNN_2_layers": (lambda nn: nn.RNN(3, 4, 2), (5, 2, 3), True),
    "RNN_relu_bidirectional_batch_first": (
        lambda nn: nn.RNN(3, 4, nonlinearity="relu", bias=False, batch_first=True,
                          bidirectional=True), (2, 5, 3), False),
    "RNN_unbatched": (lambda nn: nn.RNN(3, 4), (5, 3), True),
    "LSTM_2_layers_bidirectional": (lambda nn: nn.LSTM(3, 4, 2, bidirectional=True),
                                    (5, 2, 3), True),
    "LSTM_proj_batch_first": (lambda nn: nn.LSTM(3, 4, 2, batch_first=True, proj_size=2),
                              (2, 5, 3), True),
    "LSTM_unbatched_no_state": (lambda nn: nn.LSTM(3, 4, bias=False), (5, 3), False),
    "GRU_2_layers_bidirectional": (lambda nn: nn.GRU(3, 4, 2, bidirectional=True),
                                   (4, 3, 3), True),
    "GRU_unbatched": (lambda nn: nn.GRU(3, 4, batch_first=True), (5, 3), True),
    "RNNCell": (lambda nn: nn.RNNCell(3, 4), (2, 3), True),
    "RNNCell_relu_unbatched": (lambda nn: nn.RNNCell(3, 4, nonlinearity="relu"), (3,), True),
    "LSTMCell": (lambda nn: nn.LSTMCell(3, 4), (2, 3), True),
    "LSTMCell_no_state": (lambda nn: nn.LSTMCell(3, 4, bias=False), (2, 3), False),
    "LSTMCell_unbatched": (lambda nn: nn.LSTMCell(3, 4), (3,), True),
    "GRUCell": (lambda nn: nn.GRUCell(3, 4), (2, 3), True),
    "GRUCell_unbatched_no_state": (lambda nn: nn.GRUCell(3, 4), (3,), False),
}


def _copy_weights(module, tmodule):
    module.load_state_dict({k: tg.tensor(v.detach().numpy()) for k, v in
                            tmodule.state_dict().items()})


def _state_shapes(tmod, x):
    """The shapes of the initial states ``tmod`` takes with input ``x``."""
    out = tmod(x)
    hidden = out if "Cell" in type(tmod).__name__ else out[1]
    return [tuple(h.shape) for h in (hidden if isinstance(hidden, tuple) else (hidden,))]


def _flat(out):
    """The tensors of a layer's output ``(output, h)``, ``(output, (h, c))`` or a cell's."""
    if not isinstance(out, tuple):
        return [out]
    return [t for o in out for t in _flat(o)]


def _run(L, mod, x, states, us):
    xt = L.tensor(x, requires_grad=True)
    sts = [L.tensor(s, requires_grad=True) for s in states]
    lstm = type(mod).__name__.startswith("LSTM")
    hx = None if not sts else tuple(sts) if lstm else sts[0]
    outs = _flat(mod(xt) if hx is None else mod(xt, hx))
    loss = sum((o * L.tensor(u)).sum() for o, u in zip(outs, us, strict=True))
    params = [p for _, p in mod.named_parameters()]
    grads = L.autograd.grad(loss, [xt] + sts + params)
    return [np.asarray(o.detach()) for o in outs], [np.asarray(g) for g in grads]


@pytest.mark.parametrize("name", list(LAYERS))
def test_layer_matches_torch(name, rng, torch):
    build, shape, with_state = LAYERS[name]
    torch.manual_seed(0)
    tmod = build(torch.nn).double()
    mod = build(tg.nn)
    assert [(k, tuple(v.shape)) for k, v in mod.state_dict().items()] == \
        [(k, tuple(v.shape)) for k, v in tmod.state_dict().items()]
    assert repr(mod) == repr(tmod)
    _copy_weights(mod, tmod)
    x = rng.standard_normal(shape)
    shapes = _state_shapes(tmod, torch.tensor(x))
    states = [rng.standard_normal(s) for s in shapes] if with_state else []
    us = [rng.standard_normal(s.shape) for s in _flat(tmod(torch.tensor(x)))]
    outs, grads = _run(tg, mod, x, states, us)
    touts, tgrads = _run(torch, tmod, x, states, us)
    for a, b in zip(outs + grads, touts + tgrads, strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-12)


def test_float32_layer_matches_torch(rng, torch):
    tmod = torch.nn.LSTM(3, 4, 2)
    mod = tg.nn.LSTM(3, 4, 2).float()
    _copy_weights(mod, tmod)
    x = rng.standard_normal((5, 2, 3)).astype(np.float32)
    out, (h, c) = mod(tg.tensor(x))
    tout, (th, tc) = tmod(torch.tensor(x))
    assert out.dtype == tg.float32 and h.dtype == tg.float32
    np.testing.assert_allclose(np.asarray(out.detach()), tout.detach().numpy(), rtol=1e-5,
                               atol=1e-6)


def test_parameters_start_uniform_in_torch_bound():
    tg.manual_seed(0)
    for mod in (tg.nn.LSTM(3, 16, 2, bidirectional=True), tg.nn.GRUCell(3, 16)):
        values = np.concatenate([np.asarray(p.detach()).ravel() for p in mod.parameters()])
        assert np.abs(values).max() <= 0.25 and np.abs(values).max() > 0.24
        assert abs(values.mean()) < 0.02  # U(-1/4, 1/4): mean 0, sd 0.144
        assert 0.13 < values.std() < 0.16


def test_module_attributes_as_torch(torch):
    for nn in (tg.nn, torch.nn):
        m = nn.LSTM(3, 4, 2, bidirectional=True)
        assert m.mode == "LSTM" and m._flat_weights_names[:2] == ["weight_ih_l0",
                                                                  "weight_hh_l0"]
        assert len(m.all_weights) == 4 and len(m.all_weights[0]) == 4
        m.flatten_parameters()
        assert nn.RNN(2, 3, nonlinearity="relu").mode == "RNN_RELU"
        assert nn.RNNCell(2, 3).nonlinearity == "tanh"


def test_dropout_between_layers(rng, torch):
    # p = 1 zeroes the second layer's input in training (deterministic, so comparable);
    # in eval no dropout runs
    x = rng.standard_normal((4, 2, 3))
    for mode in ("train", "eval"):
        tmod = getattr(torch.nn.GRU(3, 4, 2, dropout=1.0).double(), mode)()
        mod = getattr(tg.nn.GRU(3, 4, 2, dropout=1.0), mode)()
        _copy_weights(mod, tmod)
        out, h = mod(tg.tensor(x))
        tout, th = tmod(torch.tensor(x))
        np.testing.assert_allclose(np.asarray(out.detach()), tout.detach().numpy(),
                                   rtol=1e-10, atol=1e-12)
        np.testing.assert_allclose(np.asarray(h.detach()), th.detach().numpy(), rtol=1e-10,
                                   atol=1e-12)
    with pytest.warns(UserWarning, match="non-zero dropout expects num_layers greater than 1"):
        tg.nn.LSTM(3, 4, dropout=0.5)


@pytest.mark.parametrize("build", [lambda nn: nn.LSTM(3, 4, 2, bidirectional=True),
                                   lambda nn: nn.GRU(3, 4, batch_first=True),
                                   lambda nn: nn.RNN(3, 4, bidirectional=True)])
def test_packed_sequences_match_torch(build, rng, torch):
    from torch.nn.utils import rnn as trnn

    from tapegrad.nn.utils import rnn as grnn
    tmod = build(torch.nn).double()
    mod = build(tg.nn)
    _copy_weights(mod, tmod)
    lengths = [3, 5, 1, 4]
    first = mod.batch_first
    x = rng.standard_normal((4, 5, 3) if first else (5, 4, 3))
    results = []
    for L, nn_rnn, m in ((tg, grnn, mod), (torch, trnn, tmod)):
        xt = L.tensor(x, requires_grad=True)
        packed = nn_rnn.pack_padded_sequence(xt, L.tensor(lengths), batch_first=first,
                                             enforce_sorted=False)
        out, hidden = m(packed)
        padded, lens = nn_rnn.pad_packed_sequence(out, batch_first=first, total_length=6,
                                                  padding_value=0.5)
        assert lens.tolist() == lengths
        outs = [padded] + _flat(hidden)
        loss = sum((o * o.detach().sin()).sum() for o in outs)
        grads = L.autograd.grad(loss, [xt] + list(m.parameters()))
        results.append([np.asarray(o.detach()) for o in outs] + [np.asarray(g) for g in grads])
    for a, b in zip(*results, strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-12)


def test_pad_and_pack_utilities_match_torch(rng, torch):
    from torch.nn.utils import rnn as trnn

    from tapegrad.nn.utils import rnn as grnn
    seqs = [rng.standard_normal((n, 2)) for n in (2, 4, 3)]
    for kwargs in ({}, {"batch_first": True, "padding_value": -1.0},
                   {"padding_side": "left"}):
        a = grnn.pad_sequence([tg.tensor(s) for s in seqs], **kwargs)
        b = trnn.pad_sequence([torch.tensor(s) for s in seqs], **kwargs)
        np.testing.assert_array_equal(np.asarray(a), b.numpy())
    sorted_seqs = sorted(seqs, key=len, reverse=True)
    p = grnn.pack_sequence([tg.tensor(s) for s in sorted_seqs])
    tp = trnn.pack_sequence([torch.tensor(s) for s in sorted_seqs])
    np.testing.assert_array_equal(np.asarray(p.data), tp.data.numpy())
    assert p.batch_sizes.tolist() == tp.batch_sizes.tolist() and p.sorted_indices is None
    back = grnn.unpack_sequence(grnn.pack_sequence([tg.tensor(s) for s in seqs],
                                                   enforce_sorted=False))
    for s, t in zip(seqs, back, strict=True):
        np.testing.assert_array_equal(s, np.asarray(t))
    assert isinstance(p, tuple) and p._fields == tp._fields


ERRORS = {  # name: call(nn, torch-like module L)
    "input_size": lambda nn, L: nn.LSTM(4, 3, 2)(L.zeros(5, 2, 6)),
    "input_4d": lambda nn, L: nn.LSTM(4, 3)(L.zeros(5, 2, 3, 4)),
    "input_1d_rnn": lambda nn, L: nn.RNN(4, 3)(L.zeros(5)),
    "hidden0_size": lambda nn, L: nn.LSTM(4, 3, 2)(L.zeros(5, 2, 4), (L.zeros(1, 2, 3),
                                                                      L.zeros(2, 2, 3))),
    "hidden1_size": lambda nn, L: nn.LSTM(4, 3, 2)(L.zeros(5, 2, 4), (L.zeros(2, 2, 3),
                                                                      L.zeros(2, 1, 3))),
    "hidden_unbatched_dims": lambda nn, L: nn.LSTM(4, 3, 2)(L.zeros(5, 4), (L.zeros(2, 2, 3),
                                                                           L.zeros(2, 2, 3))),
    "hidden_batched_dims": lambda nn, L: nn.GRU(4, 3)(L.zeros(5, 2, 4), L.zeros(2, 3)),
    "hidden_size_gru": lambda nn, L: nn.GRU(4, 3)(L.zeros(5, 2, 4), L.zeros(2, 2, 3)),
    "empty_sequence": lambda nn, L: nn.RNN(4, 3)(L.zeros(0, 2, 4)),
    "nonlinearity": lambda nn, L: nn.RNN(4, 3, nonlinearity="sigmoid"),
    "dropout_range": lambda nn, L: nn.RNN(4, 3, dropout=1.5),
    "hidden_size_zero": lambda nn, L: nn.RNN(4, 0),
    "num_layers_zero": lambda nn, L: nn.GRU(4, 3, 0),
    "hidden_size_float": lambda nn, L: nn.LSTM(4, 3.0),
    "proj_size_gru": lambda nn, L: nn.GRU(4, 3, proj_size=2),
    "proj_size_big": lambda nn, L: nn.LSTM(4, 3, proj_size=3),
    "cell_input_size": lambda nn, L: nn.LSTMCell(4, 3)(L.zeros(2, 5)),
    "cell_hidden_size": lambda nn, L: nn.LSTMCell(4, 3)(L.zeros(2, 4), (L.zeros(2, 4),
                                                                        L.zeros(2, 3))),
    "cell_batch": lambda nn, L: nn.LSTMCell(4, 3)(L.zeros(2, 4), (L.zeros(3, 3),
                                                                  L.zeros(3, 3))),
    "cell_input_3d": lambda nn, L: nn.GRUCell(4, 3)(L.zeros(2, 2, 4)),
    "cell_hidden_3d": lambda nn, L: nn.RNNCell(4, 3)(L.zeros(2, 4), L.zeros(2, 3, 1)),
    "cell_lstm_hx_not_tuple": lambda nn, L: nn.LSTMCell(4, 3)(L.zeros(2, 4), L.zeros(2, 3)),
    "pack_unsorted": lambda nn, L: nn.utils.rnn.pack_padded_sequence(L.zeros(4, 3, 2),
                                                                     [2, 3, 1]),
    "pack_zero_length": lambda nn, L: nn.utils.rnn.pack_padded_sequence(L.zeros(4, 3, 2),
                                                                        [3, 2, 0]),
    "pack_lengths_count": lambda nn, L: nn.utils.rnn.pack_padded_sequence(L.zeros(4, 3, 2),
                                                                          [3, 2]),
    "pad_empty": lambda nn, L: nn.utils.rnn.pad_sequence([]),
    "pad_side": lambda nn, L: nn.utils.rnn.pad_sequence([L.zeros(2)], padding_side="top"),
}


@pytest.mark.parametrize("name", list(ERRORS))
def test_errors_match_torch_and_record_nothing(name, raises_as_torch):
    x = tg.ones(2, requires_grad=True)
    y = x * 2.0  # a live graph: the failing call must leave its tape as it was
    raises_as_torch(lambda L: ERRORS[name](L.nn, L))
    y.sum().backward()


def test_lstm_hx_errors_name_the_fix():
    with pytest.raises(TypeError, match=r"hx must be a tuple \(h_0, c_0\)"):
        tg.nn.LSTM(4, 3)(tg.zeros(5, 2, 4), tg.zeros(1, 2, 3))
    with pytest.raises(TypeError, match="hx must be a Tensor"):
        tg.nn.GRU(4, 3)(tg.zeros(5, 2, 4), (tg.zeros(1, 2, 3),))


class _LanguageModel:
    """word_language_model's RNNModel, small: embedding, LSTM, dropout, decoder."""

    def __init__(self, L, rnn_type):
        nn = L.nn
        self.L = L
        self.encoder = nn.Embedding(11, 6)
        self.rnn = getattr(nn, rnn_type)(6, 5, 2, dropout=0.0)
        self.decoder = nn.Linear(5, 11)
        self.modules = nn.ModuleList([self.encoder, self.rnn, self.decoder])

    def __call__(self, tokens, hidden):
        out, hidden = self.rnn(self.encoder(tokens), hidden)
        return self.decoder(out).reshape(-1, 11), hidden


@pytest.mark.parametrize("rnn_type", ["LSTM", "GRU"])
def test_language_model_trains_as_torch(rnn_type, rng, torch):
    models = [_LanguageModel(L, rnn_type) for L in (tg, torch)]
    models[1].modules.double()
    _copy_weights(models[0].modules, models[1].modules)
    tokens = rng.integers(0, 11, (6, 3))
    target = rng.integers(0, 11, 18)
    losses = []
    for model in models:
        L = model.L
        hidden = None
        trace = []
        for _ in range(3):
            out, hidden = model(L.tensor(tokens[:, :]), hidden)
            hidden = tuple(h.detach() for h in hidden) if rnn_type == "LSTM" else \
                hidden.detach()
            loss = L.nn.CrossEntropyLoss()(out, L.tensor(target))
            model.modules.zero_grad()
            loss.backward()
            norm = L.nn.utils.clip_grad_norm_(model.modules.parameters(), 0.25)
            for p in model.modules.parameters():  # word_language_model's plain SGD step
                p.data.add_(p.grad, alpha=-0.5)
            trace += [loss.item(), float(norm)]
        losses.append(trace)
    np.testing.assert_allclose(losses[0], losses[1], rtol=1e-10)
